//! Export jobs: a file (workbook, report, spreadsheet) made in the background for one tracker and
//! the view it was asked from. A worker leases one job at a time (`lease_owner`, `lease_until`)
//! and extends the lease with each progress report; a job whose lease runs out (its worker or
//! server stopped) is leased again and made anew, until it has been tried `MAX_ATTEMPTS` times.
//! The finished file is kept in `export_files`, so any node serves it, until the job expires.

use hark_core::{ExportKind, ExportState, Millis};

use crate::{with_pool, BeginWrite, Result, Store};

/// Tries of one job before it fails for good (a file that stops its worker each time).
pub const EXPORT_MAX_ATTEMPTS: i64 = 3;

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ExportJob {
    pub id: i64,
    /// The job's public name: unguessable, in its URLs.
    pub token: String,
    pub tracker_id: i64,
    /// Who asked; none for a visitor through the tracker's share link.
    pub user_id: Option<i64>,
    #[sqlx(try_from = "String")]
    pub kind: ExportKind,
    #[sqlx(try_from = "String")]
    pub state: ExportState,
    /// What to export, as the API wrote it (JSON).
    pub params: String,
    pub progress_done: i64,
    pub progress_total: i64,
    pub lease_owner: Option<String>,
    pub lease_until: Option<Millis>,
    pub attempts: i64,
    pub filename: Option<String>,
    pub content_type: Option<String>,
    pub size: Option<i64>,
    /// Where a file made elsewhere opens (a Google Sheets spreadsheet).
    pub url: Option<String>,
    pub error: Option<String>,
    pub created_at: Millis,
    pub updated_at: Millis,
    pub expires_at: Millis,
}

const COLUMNS: &str = "id, token, tracker_id, user_id, kind, state, params, progress_done, progress_total, lease_owner, \
     lease_until, attempts, filename, content_type, size, url, error, created_at, updated_at, expires_at";

/// A new job.
#[derive(Debug, Clone)]
pub struct NewExport<'a> {
    pub token: &'a str,
    pub tracker_id: i64,
    pub user_id: Option<i64>,
    pub kind: ExportKind,
    pub params: &'a str,
    pub now: Millis,
    /// When an unfinished job is given up and removed.
    pub expires_at: Millis,
}

/// A finished job's result: a file kept here, or a link to one made elsewhere.
#[derive(Debug, Clone)]
pub struct ExportResult<'a> {
    pub filename: &'a str,
    pub content_type: &'a str,
    /// The file; empty when it lives at `url`.
    pub body: &'a [u8],
    pub url: Option<&'a str>,
    pub expires_at: Millis,
}

/// A kept file.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ExportFile {
    pub filename: String,
    pub content_type: String,
    pub body: Vec<u8>,
}

impl Store {
    pub async fn create_export(&self, n: &NewExport<'_>) -> Result<ExportJob> {
        let sql = format!(
            "INSERT INTO export_jobs (token, tracker_id, user_id, kind, state, params, created_at, updated_at, expires_at) \
             VALUES ($1, $2, $3, $4, 'pending', $5, $6, $6, $7) RETURNING {COLUMNS}"
        );
        Ok(with_pool!(self, |p| sqlx::query_as::<_, ExportJob>(&sql)
            .bind(n.token)
            .bind(n.tracker_id)
            .bind(n.user_id)
            .bind(n.kind.as_str())
            .bind(n.params)
            .bind(n.now)
            .bind(n.expires_at)
            .fetch_one(p)
            .await?))
    }

    pub async fn export_by_token(&self, token: &str) -> Result<Option<ExportJob>> {
        let sql = format!("SELECT {COLUMNS} FROM export_jobs WHERE token = $1");
        Ok(with_pool!(self, |p| sqlx::query_as::<_, ExportJob>(&sql).bind(token).fetch_optional(p).await?))
    }

    /// The unexpired jobs `user_id` asked for on the tracker, newest first.
    pub async fn user_exports(&self, tracker_id: i64, user_id: i64, now: Millis) -> Result<Vec<ExportJob>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM export_jobs WHERE tracker_id = $1 AND user_id = $2 AND expires_at > $3 ORDER BY id DESC LIMIT 50"
        );
        Ok(with_pool!(self, |p| sqlx::query_as::<_, ExportJob>(&sql)
            .bind(tracker_id)
            .bind(user_id)
            .bind(now)
            .fetch_all(p)
            .await?))
    }

    /// The tracker's jobs that wait or run.
    pub async fn unfinished_exports(&self, tracker_id: i64) -> Result<i64> {
        Ok(with_pool!(self, |p| sqlx::query_scalar::<_, i64>(
            "SELECT COUNT(*) FROM export_jobs WHERE tracker_id = $1 AND state IN ('pending', 'running')"
        )
        .bind(tracker_id)
        .fetch_one(p)
        .await?))
    }

    /// Leases the oldest job that is waiting, or whose worker's lease ran out, to `owner` until
    /// `lease_until`; each lease counts as an attempt. A job out of attempts fails here.
    pub async fn lease_export(&self, owner: &str, now: Millis, lease_until: Millis) -> Result<Option<ExportJob>> {
        let _turn = self.write_turn().await;
        let backend = self.backend();
        // Jobs whose worker stopped on their last attempt fail instead of running once more.
        crate::with_write_pool!(self, |p| sqlx::query(
            "UPDATE export_jobs SET state = 'failed', error = 'The export stopped before it finished.', \
             lease_owner = NULL, lease_until = NULL, updated_at = $1 \
             WHERE state = 'running' AND lease_until < $1 AND attempts >= $2"
        )
        .bind(now)
        .bind(EXPORT_MAX_ATTEMPTS)
        .execute(p)
        .await
        .map(|_| ())?);
        let sql = format!(
            "UPDATE export_jobs SET state = 'running', lease_owner = $1, lease_until = $3, attempts = attempts + 1, \
             progress_done = 0, updated_at = $2 \
             WHERE id = (SELECT j.id FROM export_jobs j WHERE (j.state = 'pending' OR (j.state = 'running' AND j.lease_until < $2)) \
             AND j.expires_at > $2 ORDER BY j.id LIMIT 1{}) RETURNING {COLUMNS}",
            backend.skip_locked("j")
        );
        Ok(with_pool!(self, |p| sqlx::query_as::<_, ExportJob>(&sql)
            .bind(owner)
            .bind(now)
            .bind(lease_until)
            .fetch_optional(p)
            .await?))
    }

    /// Saves progress and extends the lease if `owner` still holds it; false when the lease was
    /// lost (another worker took the job over, or it was removed).
    pub async fn export_progress(&self, id: i64, owner: &str, done: i64, total: i64, now: Millis, lease_until: Millis) -> Result<bool> {
        let n = with_pool!(self, |p| sqlx::query(
            "UPDATE export_jobs SET progress_done = $3, progress_total = $4, lease_until = $6, updated_at = $5 \
             WHERE id = $1 AND lease_owner = $2 AND state = 'running'"
        )
        .bind(id)
        .bind(owner)
        .bind(done)
        .bind(total)
        .bind(now)
        .bind(lease_until)
        .execute(p)
        .await?
        .rows_affected());
        Ok(n > 0)
    }

    /// Keeps `owner`'s lease of a running export until `lease_until`; false when it was lost.
    pub async fn renew_export(&self, id: i64, owner: &str, lease_until: Millis) -> Result<bool> {
        self.renew_lease("UPDATE export_jobs SET lease_until = $3 WHERE id = $1 AND lease_owner = $2 AND state = 'running'", id, owner, lease_until).await
    }

    /// Stores the finished file (or its link) and marks the job ready, if `owner` still holds it.
    pub async fn finish_export(&self, id: i64, owner: &str, r: &ExportResult<'_>, now: Millis) -> Result<bool> {
        with_pool!(self, |p| {
            let mut tx = p.begin_write(&self.write_gate).await?;
            let n = sqlx::query(
                "UPDATE export_jobs SET state = 'ready', filename = $3, content_type = $4, size = $5, url = $6, \
                 expires_at = $7, updated_at = $8, lease_owner = NULL, lease_until = NULL, \
                 progress_done = progress_total WHERE id = $1 AND lease_owner = $2 AND state = 'running'",
            )
            .bind(id)
            .bind(owner)
            .bind(r.filename)
            .bind(r.content_type)
            .bind(r.body.len() as i64)
            .bind(r.url)
            .bind(r.expires_at)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if n == 0 {
                return Ok(false);
            }
            if r.url.is_none() {
                sqlx::query("INSERT INTO export_files (job_id, body) VALUES ($1, $2)")
                    .bind(id)
                    .bind(r.body)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
        });
        Ok(true)
    }

    /// Marks the job failed with `error`, if `owner` still holds it.
    pub async fn fail_export(&self, id: i64, owner: &str, error: &str, now: Millis) -> Result<bool> {
        let n = with_pool!(self, |p| sqlx::query(
            "UPDATE export_jobs SET state = 'failed', error = $3, updated_at = $4, lease_owner = NULL, lease_until = NULL \
             WHERE id = $1 AND lease_owner = $2 AND state = 'running'"
        )
        .bind(id)
        .bind(owner)
        .bind(error)
        .bind(now)
        .execute(p)
        .await?
        .rows_affected());
        Ok(n > 0)
    }

    /// Gives a leased job back untouched, as waiting (a worker shutting down).
    pub async fn release_export(&self, id: i64, owner: &str) -> Result<()> {
        with_pool!(self, |p| sqlx::query(
            "UPDATE export_jobs SET state = 'pending', lease_owner = NULL, lease_until = NULL, attempts = attempts - 1 \
             WHERE id = $1 AND lease_owner = $2 AND state = 'running'"
        )
        .bind(id)
        .bind(owner)
        .execute(p)
        .await
        .map(|_| ())?);
        Ok(())
    }

    /// A ready job's kept file.
    pub async fn export_file(&self, id: i64) -> Result<Option<ExportFile>> {
        Ok(with_pool!(self, |p| sqlx::query_as::<_, ExportFile>(
            "SELECT j.filename, j.content_type, f.body FROM export_files f JOIN export_jobs j ON j.id = f.job_id \
             WHERE f.job_id = $1 AND j.state = 'ready'"
        )
        .bind(id)
        .fetch_optional(p)
        .await?))
    }

    /// Removes the jobs (and files) that expired before `now`; how many.
    pub async fn remove_expired_exports(&self, now: Millis) -> Result<u64> {
        let _turn = self.write_turn().await;
        Ok(crate::with_write_pool!(self, |p| sqlx::query("DELETE FROM export_jobs WHERE expires_at <= $1")
            .bind(now)
            .execute(p)
            .await?
            .rows_affected()))
    }
}
