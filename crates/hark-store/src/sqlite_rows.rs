//! SQLite: many rows through one prepared statement, on the write transaction's own connection.
//!
//! An ingest write sends tens of thousands of rows (posts, links, profiles, the search index,
//! rollups). Through sqlx each row's values became owned arguments of a `VALUES` list of up to
//! 32,000 parameters, whose text was built again for every statement, and SQLite copied every
//! bound string once more: writing real tweet texts, allocating, copying and freeing those values
//! was about a third of the writer's time, and building the lists kept the caller busy while the
//! database waited. Here a statement is prepared once per use with room for one row; each row
//! binds its values in place (SQLite reads them without copying until the row is stored) and
//! runs. It runs on the connection of the write's transaction, taken from its sqlx worker for the
//! time (`lock_handle`), so its rows are part of that transaction like any other statement's.

use std::borrow::Cow;
use std::ffi::{c_int, CStr};
use std::marker::PhantomData;

use rusqlite::ffi;

/// A value bound to a statement's parameter.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Val<'a> {
    Int(i64),
    Real(f64),
    Text(&'a str),
    Null,
}

impl From<i64> for Val<'_> {
    fn from(v: i64) -> Self {
        Val::Int(v)
    }
}

impl From<i16> for Val<'_> {
    fn from(v: i16) -> Self {
        Val::Int(v.into())
    }
}

/// Stored as 0 or 1, as sqlx stores a `bool`.
impl From<bool> for Val<'_> {
    fn from(v: bool) -> Self {
        Val::Int(v.into())
    }
}

/// NaN is stored as NULL (SQLite's own rule for a bound NaN).
impl From<f64> for Val<'_> {
    fn from(v: f64) -> Self {
        Val::Real(v)
    }
}

impl<'a> From<&'a str> for Val<'a> {
    fn from(v: &'a str) -> Self {
        Val::Text(v)
    }
}

impl<'a, T: Into<Val<'a>>> From<Option<T>> for Val<'a> {
    fn from(v: Option<T>) -> Self {
        v.map_or(Val::Null, Into::into)
    }
}

impl<'a> From<&'a crate::dialect::Arg<'_>> for Val<'a> {
    fn from(a: &'a crate::dialect::Arg<'_>) -> Self {
        use crate::dialect::Arg;
        match a {
            Arg::Int(v) => Val::Int(*v),
            Arg::OptInt(v) => (*v).into(),
            Arg::OptReal(v) => (*v).into(),
            Arg::Text(v) => Val::Text(v),
            Arg::Owned(v) => Val::Text(v),
        }
    }
}

/// A failure of SQLite's C API, told to callers as sqlx tells a SQLite error: the extended result
/// code as its code (so [`crate::StoreError::is_busy`] and the conflict mapping read it alike).
#[derive(Debug)]
pub(crate) struct RawError {
    code: c_int,
    message: String,
}

impl std::fmt::Display for RawError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "(code: {}) {}", self.code, self.message)
    }
}

impl std::error::Error for RawError {}

impl sqlx::error::DatabaseError for RawError {
    fn message(&self) -> &str {
        &self.message
    }

    fn code(&self) -> Option<Cow<'_, str>> {
        Some(Cow::Owned(self.code.to_string()))
    }

    fn as_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        self
    }

    fn as_error_mut(&mut self) -> &mut (dyn std::error::Error + Send + Sync + 'static) {
        self
    }

    fn into_error(self: Box<Self>) -> Box<dyn std::error::Error + Send + Sync + 'static> {
        self
    }

    fn kind(&self) -> sqlx::error::ErrorKind {
        use sqlx::error::ErrorKind;
        match self.code {
            ffi::SQLITE_CONSTRAINT_UNIQUE | ffi::SQLITE_CONSTRAINT_PRIMARYKEY => ErrorKind::UniqueViolation,
            ffi::SQLITE_CONSTRAINT_FOREIGNKEY => ErrorKind::ForeignKeyViolation,
            ffi::SQLITE_CONSTRAINT_NOTNULL => ErrorKind::NotNullViolation,
            ffi::SQLITE_CONSTRAINT_CHECK => ErrorKind::CheckViolation,
            _ => ErrorKind::Other,
        }
    }
}

/// The connection's latest error.
///
/// SAFETY: `db` is an open connection this thread may use.
unsafe fn error(db: *mut ffi::sqlite3, rc: c_int) -> sqlx::Error {
    let code = match ffi::sqlite3_extended_errcode(db) {
        0 => rc,
        c => c,
    };
    let msg = ffi::sqlite3_errmsg(db);
    let message = if msg.is_null() { format!("SQLite error {code}") } else { CStr::from_ptr(msg).to_string_lossy().into_owned() };
    sqlx::Error::Database(Box::new(RawError { code, message }))
}

/// The connection of a write's transaction, taken from its sqlx worker (see [`with_raw`]).
pub(crate) struct Raw<'h> {
    db: *mut ffi::sqlite3,
    _locked: PhantomData<&'h mut ()>,
}

impl Raw<'_> {
    /// Prepares `sql` (one statement) for use on this connection.
    pub(crate) fn prepare(&self, sql: &str) -> Result<Prepared<'_>, sqlx::Error> {
        let len = c_int::try_from(sql.len()).map_err(|_| sqlx::Error::Protocol("statement too long".into()))?;
        let mut stmt = std::ptr::null_mut();
        // SAFETY: `db` is open and used by this thread alone while `self` lives (see `with_raw`);
        // the text pointer and length describe `sql`, which SQLite copies.
        let rc = unsafe {
            ffi::sqlite3_prepare_v3(self.db, sql.as_ptr().cast(), len, ffi::SQLITE_PREPARE_PERSISTENT as u32, &mut stmt, std::ptr::null_mut())
        };
        if rc != ffi::SQLITE_OK {
            // SAFETY: as above.
            return Err(unsafe { error(self.db, rc) });
        }
        if stmt.is_null() {
            return Err(sqlx::Error::Protocol("empty statement".into()));
        }
        // SAFETY: `stmt` was just prepared.
        let params = unsafe { ffi::sqlite3_bind_parameter_count(stmt) } as usize;
        Ok(Prepared { db: self.db, stmt, params, _raw: PhantomData })
    }
}

/// A prepared statement of a [`Raw`] connection, finalized when dropped.
pub(crate) struct Prepared<'r> {
    db: *mut ffi::sqlite3,
    stmt: *mut ffi::sqlite3_stmt,
    params: usize,
    _raw: PhantomData<&'r Raw<'r>>,
}

impl Drop for Prepared<'_> {
    fn drop(&mut self) {
        // SAFETY: `stmt` is a statement of this connection, finalized only here.
        unsafe {
            ffi::sqlite3_finalize(self.stmt);
        }
    }
}

impl Prepared<'_> {
    /// Runs the statement once with `vals` bound to its parameters (as many as it has), calling
    /// `each` for every row it returns.
    pub(crate) fn run(&mut self, vals: &[Val<'_>], mut each: impl FnMut(&Row<'_>)) -> Result<(), sqlx::Error> {
        if vals.len() != self.params {
            return Err(sqlx::Error::Protocol(format!("{} values for {} parameters", vals.len(), self.params)));
        }
        // SAFETY: the statement and its connection are used by this thread alone (see
        // `with_raw`). Text is bound as SQLITE_STATIC: SQLite reads it in place while the
        // statement steps. Its pointers are left bound after the reset (clearing them cost about
        // a hundredth of the writer's instructions) and are never read again: every run binds all
        // the statement's parameters (checked above) before it steps, and finalizing a statement
        // reads no binding.
        unsafe {
            let mut result = Ok(());
            for (i, v) in vals.iter().enumerate() {
                let at = (i + 1) as c_int;
                let rc = match *v {
                    Val::Int(n) => ffi::sqlite3_bind_int64(self.stmt, at, n),
                    Val::Real(x) => ffi::sqlite3_bind_double(self.stmt, at, x),
                    Val::Text(s) => {
                        ffi::sqlite3_bind_text64(self.stmt, at, s.as_ptr().cast(), s.len() as u64, ffi::SQLITE_STATIC(), ffi::SQLITE_UTF8 as u8)
                    }
                    Val::Null => ffi::sqlite3_bind_null(self.stmt, at),
                };
                if rc != ffi::SQLITE_OK {
                    result = Err(error(self.db, rc));
                    break;
                }
            }
            if result.is_ok() {
                result = loop {
                    match ffi::sqlite3_step(self.stmt) {
                        ffi::SQLITE_ROW => each(&Row { stmt: self.stmt, _stmt: PhantomData }),
                        ffi::SQLITE_DONE => break Ok(()),
                        rc => break Err(error(self.db, rc)),
                    }
                };
            }
            ffi::sqlite3_reset(self.stmt);
            result
        }
    }

    /// Rows the latest run inserted, updated or deleted (a conflict that did nothing: 0).
    pub(crate) fn changes(&self) -> i64 {
        // SAFETY: the connection is used by this thread alone (see `with_raw`).
        unsafe { ffi::sqlite3_changes64(self.db) }
    }

    /// The rowid of the connection's latest successful insert (an upsert that updated leaves it).
    pub(crate) fn last_insert_rowid(&self) -> i64 {
        // SAFETY: as above.
        unsafe { ffi::sqlite3_last_insert_rowid(self.db) }
    }
}

/// A row a statement returned, valid while `each` runs.
pub(crate) struct Row<'s> {
    stmt: *mut ffi::sqlite3_stmt,
    _stmt: PhantomData<&'s ()>,
}

impl Row<'_> {
    pub(crate) fn int(&self, i: usize) -> i64 {
        // SAFETY: the statement has a current row (see `Prepared::run`); an index past its
        // columns reads as 0.
        unsafe { ffi::sqlite3_column_int64(self.stmt, i as c_int) }
    }

    pub(crate) fn opt_int(&self, i: usize) -> Option<i64> {
        // SAFETY: as above.
        let null = unsafe { ffi::sqlite3_column_type(self.stmt, i as c_int) } == ffi::SQLITE_NULL;
        (!null).then(|| self.int(i))
    }

    #[cfg(test)]
    pub(crate) fn text(&self, i: usize) -> String {
        // SAFETY: as above; the text pointer and its length are read before anything else is
        // asked of the statement, and copied at once.
        unsafe {
            let p = ffi::sqlite3_column_text(self.stmt, i as c_int);
            let n = ffi::sqlite3_column_bytes(self.stmt, i as c_int);
            if p.is_null() || n <= 0 {
                return String::new();
            }
            String::from_utf8_lossy(std::slice::from_raw_parts(p, n as usize)).into_owned()
        }
    }
}

/// The statement text of `head`, one row of `width` parameters, and `tail`.
pub(crate) fn one_row(head: &str, width: usize, tail: &str) -> String {
    let mut sql = String::with_capacity(head.len() + tail.len() + 12 + 3 * width);
    sql.push_str(head);
    sql.push_str("VALUES (");
    for i in 0..width {
        sql.push_str(if i == 0 { "?" } else { ", ?" });
    }
    sql.push(')');
    sql.push_str(tail);
    sql
}

/// Runs `work` on the connection of `conn`, locked from its sqlx worker meanwhile, on this thread.
/// On a runtime of several workers the runtime is told this worker blocks (a large write holds it
/// for a while); on a runtime of one thread (SQLite's writer thread) it simply runs.
pub(crate) async fn with_raw<R>(
    conn: &mut sqlx::SqliteConnection,
    work: impl FnOnce(&Raw<'_>) -> Result<R, sqlx::Error>,
) -> Result<R, sqlx::Error> {
    let mut handle = conn.lock_handle().await?;
    let raw = Raw { db: handle.as_raw_handle().as_ptr(), _locked: PhantomData };
    let run = || work(&raw);
    let out = match tokio::runtime::Handle::try_current() {
        Ok(h) if h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => tokio::task::block_in_place(run),
        _ => run(),
    };
    drop(raw);
    drop(handle);
    out
}

#[cfg(test)]
mod tests {
    use sqlx::{Connection, SqliteConnection};

    use super::{one_row, with_raw, Val};
    use crate::StoreError;

    async fn table() -> SqliteConnection {
        let mut conn = SqliteConnection::connect("sqlite::memory:").await.expect("connect");
        sqlx::query("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, x REAL, n INTEGER)")
            .execute(&mut conn)
            .await
            .expect("table");
        conn
    }

    /// Rows run through the C API belong to the open transaction, read back as given (NaN as
    /// NULL, an empty text as an empty text), and a failure is told as sqlx tells SQLite's:
    /// a unique violation is a conflict, a wrong number of values or a bad statement an error.
    async fn rows_and_errors() {
        let mut conn = table().await;
        let mut tx = conn.begin().await.expect("begin");
        let got = with_raw(&mut tx, |raw| {
            let mut st = raw.prepare(&one_row("INSERT INTO t (name, x, n) ", 3, " RETURNING id, name, n"))?;
            let mut got = Vec::new();
            st.run(&["a".into(), f64::NAN.into(), Val::Null], |r| got.push((r.int(0), r.text(1), r.opt_int(2))))?;
            st.run(&["".into(), 1.5.into(), Some(7i64).into()], |r| got.push((r.int(0), r.text(1), r.opt_int(2))))?;
            let wrong = st.run(&["b".into()], |_| {}).expect_err("one value for three");
            assert!(matches!(wrong, sqlx::Error::Protocol(_)), "{wrong:?}");
            let again = StoreError::from(st.run(&["a".into(), Val::Null, Val::Null], |_| {}).expect_err("duplicate"));
            assert!(again.is_conflict_on("t_name_key", "t.name"), "{again:?}");
            // The statement is usable after a failure.
            st.run(&["c".into(), 2.0.into(), 3i64.into()], |r| got.push((r.int(0), r.text(1), r.opt_int(2))))?;
            Ok(got)
        })
        .await
        .expect("rows");
        assert_eq!(got, vec![(1, "a".to_string(), None), (2, String::new(), Some(7)), (3, "c".to_string(), Some(3))]);
        let bad = with_raw(&mut tx, |raw| raw.prepare("INSERT INTO nowhere VALUES (?)").map(|_| ())).await.expect_err("no table");
        assert!(bad.to_string().contains("nowhere"), "{bad}");
        let rows: Vec<(String, Option<f64>)> = sqlx::query_as("SELECT name, x FROM t ORDER BY id").fetch_all(&mut *tx).await.expect("read");
        assert_eq!(rows, vec![("a".to_string(), None), (String::new(), Some(1.5)), ("c".to_string(), Some(2.0))]);
        tx.rollback().await.expect("rollback");
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM t").fetch_one(&mut conn).await.expect("count");
        assert_eq!(n, 0, "the rows were part of the rolled-back transaction");
    }

    /// How the ingest tells new rows without `RETURNING`: an insert moves the last insert rowid
    /// and changes one row; a conflict that does nothing changes none; an upsert that updates
    /// changes one row and leaves the rowid where it was.
    #[tokio::test]
    async fn inserts_are_told_from_conflicts_by_changes_and_rowid() {
        let mut conn = table().await;
        let seen = with_raw(&mut conn, |raw| {
            let mut ignore = raw.prepare(&one_row("INSERT INTO t (name, n) ", 2, " ON CONFLICT (name) DO NOTHING"))?;
            let mut upsert = raw.prepare(&one_row("INSERT INTO t (name, n) ", 2, " ON CONFLICT (name) DO UPDATE SET n = excluded.n"))?;
            let mut seen = Vec::new();
            ignore.run(&["a".into(), 1i64.into()], |_| {})?;
            seen.push((ignore.changes(), ignore.last_insert_rowid()));
            ignore.run(&["a".into(), 2i64.into()], |_| {})?;
            seen.push((ignore.changes(), ignore.last_insert_rowid()));
            upsert.run(&["b".into(), 3i64.into()], |_| {})?;
            seen.push((upsert.changes(), upsert.last_insert_rowid()));
            upsert.run(&["a".into(), 4i64.into()], |_| {})?;
            seen.push((upsert.changes(), upsert.last_insert_rowid()));
            Ok(seen)
        })
        .await
        .expect("rows");
        assert_eq!(seen, vec![(1, 1), (0, 1), (1, 2), (1, 2)]);
        let n: i64 = sqlx::query_scalar("SELECT n FROM t WHERE name = 'a'").fetch_one(&mut conn).await.expect("read");
        assert_eq!(n, 4, "the upsert updated the stored row");
    }

    #[tokio::test]
    async fn on_a_runtime_of_one_thread() {
        rows_and_errors().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn on_a_runtime_of_several_workers() {
        rows_and_errors().await;
    }
}
