/// Errors of the storage layer. Constraint violations keep the constraint's name so the HTTP layer
/// can map them to 409/422.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("not found")]
    NotFound,
    #[error("conflict on {0}")]
    Conflict(String),
    #[error("configuration: {0}")]
    Config(String),
    #[error("stored data is invalid: {0}")]
    Corrupt(String),
    #[error("database: {0}")]
    Database(sqlx::Error),
    #[error("migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A long read of SQLite on a connection of its own (not through sqlx) failed.
    #[error("database: {0}")]
    Read(String),
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Read(e.to_string())
    }
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        match &e {
            sqlx::Error::RowNotFound => StoreError::NotFound,
            sqlx::Error::Database(db) if db.is_unique_violation() => {
                let name = db.constraint().map(str::to_string).unwrap_or_else(|| db.message().to_string());
                StoreError::Conflict(name)
            }
            _ => StoreError::Database(e),
        }
    }
}

impl StoreError {
    /// True for a unique violation on the named constraint (PostgreSQL names it; SQLite names the
    /// columns, so the column list is matched too).
    pub fn is_conflict_on(&self, constraint: &str, columns: &str) -> bool {
        matches!(self, StoreError::Conflict(c) if c == constraint || c.contains(columns))
    }
}

impl StoreError {
    /// Whether the database was too busy to take the statement: SQLite's BUSY and LOCKED (with
    /// their extended codes), PostgreSQL's lock timeout and deadlock. The statement's transaction
    /// was rolled back whole, so the same request can be sent again.
    pub fn is_busy(&self) -> bool {
        match self {
            StoreError::Database(sqlx::Error::Database(db)) => busy_code(db.code().as_deref()),
            _ => false,
        }
    }
}

fn busy_code(code: Option<&str>) -> bool {
    match code {
        Some("55P03" | "40P01") => true,
        Some(c) => c.parse::<i64>().is_ok_and(|n| matches!(n & 0xff, 5 | 6)),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::busy_code;

    #[test]
    fn a_busy_database_is_told_apart_from_other_failures() {
        for code in ["5", "517", "773", "6", "262", "55P03", "40P01"] {
            assert!(busy_code(Some(code)), "{code}");
        }
        for code in ["19", "2067", "23505", "40001x", ""] {
            assert!(!busy_code(Some(code)), "{code}");
        }
        assert!(!busy_code(None));
    }
}
