//! The audit log: rank changes, hand-overs, share-link changes and deletions, each written by
//! the store method that makes the change, in its transaction (a change without its entry, or
//! an entry without its change, cannot be committed).

use hark_core::Millis;

use crate::{with_pool, BeginWrite, Result, Store};

/// An entry to write with a change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Audit {
    pub tracker_id: Option<i64>,
    pub tracker_hash: Option<String>,
    pub tracker_title: String,
    /// The account that made the change.
    pub actor_id: Option<i64>,
    /// Its address (kept as it was).
    pub actor: String,
    /// What was done: `member_added`, `member_rank_changed`, `member_removed`, `owner_changed`,
    /// `share_changed`, `share_revoked`, `moderation_link_rotated`, `tracker_deleted`,
    /// `posts_deleted`, `posts_restored`, `admin_granted` or `admin_revoked`.
    pub action: String,
    /// JSON object of what changed.
    pub detail: String,
    pub at: Millis,
}

/// A stored entry.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct AuditRow {
    pub id: i64,
    pub tracker_id: Option<i64>,
    pub tracker_hash: Option<String>,
    pub tracker_title: String,
    pub actor_id: Option<i64>,
    pub actor: String,
    pub action: String,
    pub detail: String,
    pub created_at: Millis,
}

/// Writes `$audit` (an [`Audit`]) in the transaction `$tx`.
macro_rules! write_audit {
    ($tx:expr, $audit:expr) => {{
        let a: &$crate::Audit = $audit;
        sqlx::query(
            "INSERT INTO audit_log (tracker_id, tracker_hash, tracker_title, actor_id, actor, action, detail, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(a.tracker_id)
        .bind(&a.tracker_hash)
        .bind(&a.tracker_title)
        .bind(a.actor_id)
        .bind(&a.actor)
        .bind(&a.action)
        .bind(&a.detail)
        .bind(a.at)
        .execute(&mut *$tx)
        .await?;
    }};
}
pub(crate) use write_audit;

/// Runs the statements of `$body` on `$tx`, a write transaction, then writes `$audit` (an
/// `Option<&Audit>`) in it and commits: the change and its entry are stored together or not at
/// all.
macro_rules! audited_write {
    ($store:expr, $audit:expr, |$tx:ident| $body:block) => {
        $crate::with_pool!($store, |p| {
            let mut $tx = $crate::BeginWrite::begin_write(p, &$store.write_gate).await?;
            $body
            if let Some(a) = $audit {
                $crate::audit::write_audit!($tx, a);
            }
            $tx.commit().await?;
            Ok::<_, $crate::StoreError>(())
        })
    };
}
pub(crate) use audited_write;

const AUDIT_COLUMNS: &str = "id, tracker_id, tracker_hash, tracker_title, actor_id, actor, action, detail, created_at";

impl Store {
    /// Entries newest first: of one tracker or of all, older than the entry `before` when given,
    /// at most `limit`.
    pub async fn audit_log(&self, tracker_id: Option<i64>, before: Option<i64>, limit: i64) -> Result<Vec<AuditRow>> {
        let sql = format!(
            "SELECT {AUDIT_COLUMNS} FROM audit_log WHERE ($1 IS NULL OR tracker_id = $1) AND ($2 IS NULL OR id < $2) \
             ORDER BY id DESC LIMIT $3"
        );
        Ok(with_pool!(self, |p| sqlx::query_as::<_, AuditRow>(&sql)
            .bind(tracker_id)
            .bind(before)
            .bind(limit)
            .fetch_all(p)
            .await?))
    }

    /// Runs one statement whose parameters are `ids` and writes `audit` with it when it changed
    /// a row, in one transaction; returns the rows changed.
    pub(crate) async fn write_audited(&self, sql: &str, ids: &[i64], audit: Option<&Audit>) -> Result<u64> {
        with_pool!(self, |p| {
            let mut tx = p.begin_write(&self.write_gate).await?;
            let mut q = sqlx::query(sql);
            for id in ids {
                q = q.bind(*id);
            }
            let changed = q.execute(&mut *tx).await?.rows_affected();
            if let Some(a) = audit.filter(|_| changed > 0) {
                write_audit!(tx, a);
            }
            tx.commit().await?;
            Ok::<_, crate::StoreError>(changed)
        })
    }
}
