//! Every SQL difference between SQLite and PostgreSQL that Hark's queries meet, in one place: the
//! queries are written once and call these for the few words the two databases spell apart.
//!
//! The deletion of a link (bulk delete) is kept differently: SQLite keeps it in the link
//! (`tracker_posts.deleted_at`) with a copy in `tracker_deleted_posts`; PostgreSQL keeps it in
//! `tracker_deleted_posts` alone (migration 0020), so a delete and its undo write none of the links
//! and none of their indexes (an update of a link whose heap page is full writes every index of
//! the table: 0.5–1.8 s for 10,000 links, against 0.34–0.43 s). An SQLite update writes only the
//! indexes that hold a changed column, and none holds `deleted_at`, so there the column is the
//! cheaper model. Readers never test either directly: they ask for [`Backend::live_link`].

/// The database a store runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// SQL that holds when the link `alias` (a `tracker_posts` row, or the table itself) is not
    /// deleted (bulk delete).
    pub(crate) fn live_link(self, alias: &str) -> String {
        match self {
            Backend::Sqlite => format!("{alias}.deleted_at IS NULL"),
            Backend::Postgres => format!("NOT {}", self.deleted_link(alias)),
        }
    }

    /// SQL that holds when the link `alias` is deleted: the negation of [`Backend::live_link`].
    pub(crate) fn deleted_link(self, alias: &str) -> String {
        match self {
            Backend::Sqlite => format!("{alias}.deleted_at IS NOT NULL"),
            Backend::Postgres => format!(
                "EXISTS (SELECT 1 FROM tracker_deleted_posts dl WHERE dl.tracker_id = {alias}.tracker_id AND dl.post_id = {alias}.post_id)"
            ),
        }
    }

    /// SQL that holds when the link `tp` of the tracker `tracker` (an expression) is not deleted,
    /// for a query of the links of one time range (`lo`, `hi`: expressions). On PostgreSQL a range
    /// usually holds no deleted link: one look at their time index, run once (an initial plan),
    /// then spares the look-up of each link read (page 200 by date: 5.2 ms with the look-ups, 1.6
    /// ms without).
    pub(crate) fn live_in_range(self, tracker: &str, (lo, hi): (&str, &str)) -> String {
        match self {
            Backend::Sqlite => self.live_link("tp"),
            Backend::Postgres => format!(
                "(NOT EXISTS (SELECT 1 FROM tracker_deleted_posts dr WHERE dr.tracker_id = {tracker} AND dr.created_at >= {lo} \
                 AND dr.created_at <= {hi}) OR {})",
                self.live_link("tp")
            ),
        }
    }

    /// A JSON-array parameter (see [`json_ids`]) read as a set of integers: no parameter limit,
    /// and PostgreSQL keeps one plan (a prepared IN list of hundreds of parameters gets a generic
    /// plan that can be a sequential scan).
    pub(crate) fn id_set(self, param: &str) -> String {
        match self {
            Backend::Sqlite => format!("SELECT value FROM json_each({param})"),
            Backend::Postgres => format!("SELECT jsonb_array_elements_text({param}::jsonb)::bigint"),
        }
    }

    /// A JSON-array parameter read as a set of strings.
    pub(crate) fn text_set(self, param: &str) -> String {
        match self {
            Backend::Sqlite => format!("SELECT value FROM json_each({param})"),
            Backend::Postgres => format!("SELECT jsonb_array_elements_text({param}::jsonb)"),
        }
    }

    /// A JSON-array parameter of `[platform, author]` pairs read as a table `(platform, author)`:
    /// accounts looked up by their key.
    pub(crate) fn account_set(self, param: &str) -> String {
        match self {
            Backend::Sqlite => format!("(SELECT value ->> 0 AS platform, value ->> 1 AS author FROM json_each({param}))"),
            Backend::Postgres => {
                format!("(SELECT v ->> 0 AS platform, v ->> 1 AS author FROM jsonb_array_elements({param}::jsonb) v)")
            }
        }
    }

    /// The larger of two values: `GREATEST` on PostgreSQL, multi-argument `MAX` on SQLite.
    pub(crate) fn greatest(self) -> &'static str {
        match self {
            Backend::Sqlite => "MAX",
            Backend::Postgres => "GREATEST",
        }
    }

    /// The smaller of two values: `LEAST` on PostgreSQL, multi-argument `MIN` on SQLite.
    pub(crate) fn least(self) -> &'static str {
        match self {
            Backend::Sqlite => "MIN",
            Backend::Postgres => "LEAST",
        }
    }

    /// The end of a `SELECT … FOR UPDATE` that passes over rows another transaction holds
    /// (PostgreSQL); SQLite writes one transaction at a time and needs none.
    pub(crate) fn skip_locked(self, alias: &str) -> String {
        match self {
            Backend::Sqlite => String::new(),
            Backend::Postgres => format!(" FOR UPDATE OF {alias} SKIP LOCKED"),
        }
    }

    /// Texts of a column aggregated as one, a line each: one row for a group instead of one per
    /// row (read back by splitting on newlines).
    pub(crate) fn lines_concat(self, column: &str) -> String {
        match self {
            Backend::Sqlite => format!("group_concat({column}, char(10))"),
            Backend::Postgres => format!("string_agg({column}, E'\\n')"),
        }
    }

    /// The double-precision floating point type.
    pub(crate) fn real_type(self) -> &'static str {
        match self {
            Backend::Sqlite => "REAL",
            Backend::Postgres => "DOUBLE PRECISION",
        }
    }
}

/// Ids as the JSON-array parameter [`Backend::id_set`] reads.
pub(crate) fn json_ids(ids: &[i64]) -> String {
    serde_json::to_string(ids).unwrap_or_else(|_| "[]".into())
}

/// Ids from an [`Backend::id_concat`], sorted.
pub(crate) fn id_list(list: Option<String>) -> Vec<i64> {
    let mut ids: Vec<i64> = list.unwrap_or_default().split(',').filter_map(|x| x.parse().ok()).collect();
    ids.sort_unstable();
    ids
}

/// Integers inlined as an SQL list (`1,2,3`): safe, they are numbers.
pub(crate) fn int_list(ids: &[i64]) -> String {
    ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}

/// A value bound to a statement that a [`WriteTx`] runs (the types the rollup writers bind).
#[derive(Debug, Clone)]
pub(crate) enum Arg<'a> {
    Int(i64),
    OptInt(Option<i64>),
    OptReal(Option<f64>),
    Text(&'a str),
    Owned(String),
}

impl From<i64> for Arg<'_> {
    fn from(v: i64) -> Self {
        Arg::Int(v)
    }
}

impl From<Option<i64>> for Arg<'_> {
    fn from(v: Option<i64>) -> Self {
        Arg::OptInt(v)
    }
}

impl From<Option<f64>> for Arg<'_> {
    fn from(v: Option<f64>) -> Self {
        Arg::OptReal(v)
    }
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(v: &'a str) -> Self {
        Arg::Text(v)
    }
}

impl From<String> for Arg<'_> {
    fn from(v: String) -> Self {
        Arg::Owned(v)
    }
}

/// A write transaction on either database, as one type the rollup writers are generic over
/// (`sqlx`'s two transaction types share no trait a writer could name its binds through).
pub(crate) trait WriteTx: Send {
    const BACKEND: Backend;

    /// Runs a statement.
    async fn run(&mut self, sql: &str, args: Vec<Arg<'_>>) -> Result<(), sqlx::Error>;

    /// Runs a query and reads its rows.
    async fn rows<R>(&mut self, sql: &str, args: Vec<Arg<'_>>) -> Result<Vec<R>, sqlx::Error>
    where
        R: for<'r> sqlx::FromRow<'r, sqlx::sqlite::SqliteRow> + for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow> + Send + Unpin;

    /// Runs an `INSERT` of the rows of `v` with `tail` after them (its conflict clause): on
    /// PostgreSQL as one statement, on SQLite as one prepared statement of one row run for each
    /// row (`sqlite_rows`: no list of thousands of parameters to build and bind).
    async fn insert_values(&mut self, v: Values<'_>, tail: &str) -> Result<(), sqlx::Error>;

    /// The transaction's connection when it is SQLite's.
    fn sqlite_connection(&mut self) -> Option<&mut sqlx::SqliteConnection>;
}

macro_rules! bind_args {
    ($q:expr, $args:expr) => {{
        let mut q = $q;
        for a in $args {
            q = match a {
                Arg::Int(v) => q.bind(v),
                Arg::OptInt(v) => q.bind(v),
                Arg::OptReal(v) => q.bind(v),
                Arg::Text(v) => q.bind(v),
                Arg::Owned(v) => q.bind(v),
            };
        }
        q
    }};
}

impl WriteTx for crate::Write<sqlx::Sqlite> {
    const BACKEND: Backend = Backend::Sqlite;

    fn sqlite_connection(&mut self) -> Option<&mut sqlx::SqliteConnection> {
        Some(self)
    }

    async fn run(&mut self, sql: &str, args: Vec<Arg<'_>>) -> Result<(), sqlx::Error> {
        bind_args!(sqlx::query(sql), args).execute(&mut **self).await.map(|_| ())
    }

    async fn rows<R>(&mut self, sql: &str, args: Vec<Arg<'_>>) -> Result<Vec<R>, sqlx::Error>
    where
        R: for<'r> sqlx::FromRow<'r, sqlx::sqlite::SqliteRow> + for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow> + Send + Unpin,
    {
        bind_args!(sqlx::query_as::<_, R>(sql), args).fetch_all(&mut **self).await
    }

    async fn insert_values(&mut self, v: Values<'_>, tail: &str) -> Result<(), sqlx::Error> {
        if v.rows == 0 {
            return Ok(());
        }
        let width = v.width();
        let sql = crate::sqlite_rows::one_row(v.head(), width, tail);
        crate::sqlite_rows::with_raw(self, |raw| {
            let mut st = raw.prepare(&sql)?;
            let mut row: Vec<crate::sqlite_rows::Val> = Vec::with_capacity(width);
            for values in v.args.chunks(width) {
                row.clear();
                row.extend(values.iter().map(crate::sqlite_rows::Val::from));
                st.run(&row, |_| {})?;
            }
            Ok(())
        })
        .await
    }
}

impl WriteTx for crate::Write<sqlx::Postgres> {
    const BACKEND: Backend = Backend::Postgres;

    fn sqlite_connection(&mut self) -> Option<&mut sqlx::SqliteConnection> {
        None
    }

    async fn run(&mut self, sql: &str, args: Vec<Arg<'_>>) -> Result<(), sqlx::Error> {
        bind_args!(sqlx::query(sql), args).execute(&mut **self).await.map(|_| ())
    }

    async fn rows<R>(&mut self, sql: &str, args: Vec<Arg<'_>>) -> Result<Vec<R>, sqlx::Error>
    where
        R: for<'r> sqlx::FromRow<'r, sqlx::sqlite::SqliteRow> + for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow> + Send + Unpin,
    {
        bind_args!(sqlx::query_as::<_, R>(sql), args).fetch_all(&mut **self).await
    }

    async fn insert_values(&mut self, v: Values<'_>, tail: &str) -> Result<(), sqlx::Error> {
        if v.rows == 0 {
            return Ok(());
        }
        let (sql, args) = v.finish(tail);
        self.run(&sql, args).await
    }
}

/// A statement whose rows are written as a `VALUES` list: `?` placeholders on SQLite, `$n` on
/// PostgreSQL, and the values in order.
pub(crate) struct Values<'a> {
    backend: Backend,
    /// The statement's text up to its list.
    head: String,
    args: Vec<Arg<'a>>,
    rows: usize,
}

impl<'a> Values<'a> {
    /// Starts with the statement's text up to its `VALUES` list (the list's `VALUES` keyword
    /// added by [`Values::finish`]).
    pub(crate) fn new(backend: Backend, head: &str) -> Self {
        Self { backend, head: head.to_string(), args: Vec::new(), rows: 0 }
    }

    /// One row of the list.
    pub(crate) fn row<const N: usize>(&mut self, values: [Arg<'a>; N]) {
        self.row_of(values);
    }

    /// One row of the list, of any length (every row of a list has the same).
    pub(crate) fn row_of(&mut self, values: impl IntoIterator<Item = Arg<'a>>) {
        self.args.extend(values);
        self.rows += 1;
    }

    /// The statement's text up to its list.
    pub(crate) fn head(&self) -> &str {
        &self.head
    }

    /// The values of one row (0 before the first row).
    pub(crate) fn width(&self) -> usize {
        if self.rows == 0 { 0 } else { self.args.len() / self.rows }
    }

    /// The statement with its list and `tail` after it, and its values. The list's text is built
    /// here only: SQLite's row-at-a-time inserts ([`WriteTx::insert_values`]) never need it.
    pub(crate) fn finish(self, tail: &str) -> (String, Vec<Arg<'a>>) {
        let width = self.width();
        let mut sql = String::with_capacity(self.head.len() + tail.len() + self.args.len() * 6 + 8);
        sql.push_str(&self.head);
        for r in 0..self.rows {
            sql.push_str(if r == 0 { "VALUES (" } else { ", (" });
            for i in 0..width {
                if i > 0 {
                    sql.push_str(", ");
                }
                match self.backend {
                    Backend::Sqlite => sql.push('?'),
                    Backend::Postgres => {
                        use std::fmt::Write as _;
                        let _ = write!(sql, "${}", r * width + i + 1);
                    }
                }
            }
            sql.push(')');
        }
        sql.push_str(tail);
        (sql, self.args)
    }
}

/// PostgreSQL: the rows of the JSON array `$1` (each an array of values in column order) as a
/// SELECT of columns of these types, named `column1`, `column2`… as a VALUES list's are. Large
/// upserts send their rows this way: a statement of thousands of parameters costs more to parse
/// and bind than to run.
pub(crate) fn pg_json_rows(types: &[&str]) -> String {
    let columns: Vec<String> = types.iter().enumerate().map(|(i, t)| format!("(e->>{i})::{t} AS column{}", i + 1)).collect();
    format!("SELECT {} FROM jsonb_array_elements($1::jsonb) e", columns.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_lists_number_their_parameters_on_postgres_only() {
        let mut v = Values::new(Backend::Postgres, "INSERT INTO t (a, b) ");
        v.row([1i64.into(), "x".into()]);
        v.row([2i64.into(), "y".into()]);
        let (sql, args) = v.finish(" ON CONFLICT DO NOTHING");
        assert_eq!(sql, "INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4) ON CONFLICT DO NOTHING");
        assert_eq!(args.len(), 4);
        let mut v = Values::new(Backend::Sqlite, "INSERT INTO t (a) ");
        v.row([Arg::Int(1)]);
        v.row([Arg::OptInt(None)]);
        assert_eq!(v.finish("").0, "INSERT INTO t (a) VALUES (?), (?)");
        // Three columns: the numbers run on across rows; SQLite's one-row statement keeps the head.
        let mut v = Values::new(Backend::Postgres, "INSERT INTO t (a, b, c) ");
        assert_eq!(v.width(), 0);
        v.row([1i64.into(), "x".into(), 2i64.into()]);
        v.row([3i64.into(), "y".into(), 4i64.into()]);
        assert_eq!((v.width(), v.head()), (3, "INSERT INTO t (a, b, c) "));
        assert_eq!(v.finish("").0, "INSERT INTO t (a, b, c) VALUES ($1, $2, $3), ($4, $5, $6)");
        // No rows: the head and the tail alone.
        let (sql, args) = Values::new(Backend::Sqlite, "SELECT 1 FROM (").finish(")");
        assert_eq!((sql.as_str(), args.len()), ("SELECT 1 FROM ()", 0));
    }
}
