//! Work done under a lease: every server's workers lease jobs from the database (collection,
//! re-analysis, exports, alert deliveries), and a job whose server died is taken over by another
//! server's worker once its lease runs out. [`hold_lease`] renews a lease while the work runs, so
//! the lease can be short (a dead server's jobs move on within seconds) however long one step of
//! the work takes.

use std::future::Future;
use std::time::Duration;

/// How [`hold_lease`] ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Held<T> {
    /// The work finished while the lease was held.
    Done(T),
    /// A renewal found the lease gone (another worker has the job, or it was finished or
    /// cancelled meanwhile): the work was dropped where it stood.
    Lost,
}

/// Runs `work` and calls `renew` every `beat` while it runs. `renew` answers whether the lease is
/// still held; a failed renewal (the database out of reach) is retried at the next beat, but when
/// none has succeeded for three beats (the lease's length) another worker may hold the job, and the
/// work stops as if the lease were lost. The work goes on while a renewal runs: a renewal that
/// waits for the database's write lock waits for the work's own transaction to end.
pub async fn hold_lease<T, E: std::fmt::Display, R, RF>(work: impl Future<Output = T>, beat: Duration, mut renew: R) -> Held<T>
where
    R: FnMut() -> RF,
    RF: Future<Output = Result<bool, E>>,
{
    tokio::pin!(work);
    let beat = beat.max(Duration::from_millis(1));
    let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + beat, beat);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut renewed = tokio::time::Instant::now();
    let mut renewal: Option<std::pin::Pin<Box<RF>>> = None;
    loop {
        tokio::select! {
            done = &mut work => return Held::Done(done),
            _ = tick.tick(), if renewal.is_none() => renewal = Some(Box::pin(renew())),
            r = async { renewal.as_mut().expect("a renewal runs").await }, if renewal.is_some() => {
                renewal = None;
                match r {
                    Ok(true) => renewed = tokio::time::Instant::now(),
                    Ok(false) => return Held::Lost,
                    Err(e) if renewed.elapsed() >= beat * 3 => {
                        tracing::warn!(error = %e, "lease not renewed for its whole length; stopping the work");
                        return Held::Lost;
                    }
                    Err(e) => tracing::warn!(error = %e, "lease not renewed; trying again"),
                }
            }
        }
    }
}

/// Work that one server of a cluster does at a time (the demo tracker's feed): held by the
/// server that took it until that server stops. On PostgreSQL it is a session advisory lock on
/// a connection kept for it, so the database lets go of it when the holder's connection ends (the
/// server died) and another server takes it; on SQLite one server runs on a database anyway.
pub struct Singleton {
    /// Taken out of the pool: the lock goes with the connection when the singleton is dropped.
    conn: Option<sqlx::PgConnection>,
}

impl Singleton {
    /// Whether the lock is still held: false once its connection broke (the database restarted),
    /// when the holder must stop and take it again.
    pub async fn still_held(&mut self) -> bool {
        match &mut self.conn {
            None => true,
            Some(c) => sqlx::query("SELECT 1").execute(c).await.is_ok(),
        }
    }
}

impl crate::Store {
    /// Runs a lease's renewal, `UPDATE … SET lease_until = $3 WHERE id = $1 AND lease_owner = $2 …`:
    /// whether `owner` still held it.
    ///
    /// Not queued at the write gate (`Store::write_turn`): the work renewing its lease may hold
    /// the gate in the same task (`hold_lease` polls both), and a renewal is one short statement.
    pub(crate) async fn renew_lease(&self, sql: &'static str, id: i64, owner: &str, lease_until: hark_core::Millis) -> crate::Result<bool> {
        let n = crate::with_pool!(self, |p| sqlx::query(sql).bind(id).bind(owner).bind(lease_until).execute(p).await?.rows_affected());
        Ok(n == 1)
    }

    /// Takes the singleton `name` if no other server holds it.
    pub async fn take_singleton(&self, name: &str) -> crate::Result<Option<Singleton>> {
        match &self.db {
            crate::Db::Sqlite(_) => Ok(Some(Singleton { conn: None })),
            crate::Db::Postgres(p) => {
                let mut conn = p.acquire().await?.detach();
                let got: bool = sqlx::query_scalar("SELECT pg_try_advisory_lock(hashtext($1))").bind(format!("hark:{name}")).fetch_one(&mut conn).await?;
                Ok(got.then_some(Singleton { conn: Some(conn) }))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    #[tokio::test]
    async fn renews_while_the_work_runs_and_stops_when_lost() {
        let beats = Arc::new(AtomicUsize::new(0));
        let b = beats.clone();
        let r = hold_lease(tokio::time::sleep(Duration::from_millis(350)), Duration::from_millis(100), move || {
            let b = b.clone();
            async move { Ok::<_, String>(b.fetch_add(1, Ordering::SeqCst) < 100) }
        })
        .await;
        assert_eq!(r, Held::Done(()));
        assert_eq!(beats.load(Ordering::SeqCst), 3, "renewed at 100, 200 and 300 ms");

        let b = Arc::new(AtomicUsize::new(0));
        let b2 = b.clone();
        let r = hold_lease(tokio::time::sleep(Duration::from_secs(60)), Duration::from_millis(20), move || {
            let b = b2.clone();
            async move {
                let n = b.fetch_add(1, Ordering::SeqCst);
                if n == 0 {
                    Err("database away".to_string())
                } else {
                    Ok(n < 2)
                }
            }
        })
        .await;
        assert_eq!(r, Held::Lost, "an error is retried, a lost lease stops the work");
        assert_eq!(b.load(Ordering::SeqCst), 3);
    }

    /// A renewal that waits for the work (as one waits for the write lock the work's transaction
    /// holds) does not stop the work: both go on.
    #[tokio::test]
    async fn the_work_goes_on_while_a_renewal_waits_for_it() {
        let (step_done, step_seen) = (Arc::new(tokio::sync::Notify::new()), Arc::new(AtomicUsize::new(0)));
        let (done, seen) = (step_done.clone(), step_seen.clone());
        let work = async move {
            // Past the first beat, then the step the renewal waits for.
            tokio::time::sleep(Duration::from_millis(60)).await;
            done.notify_one();
            tokio::time::sleep(Duration::from_millis(20)).await;
            7
        };
        let r = tokio::time::timeout(
            Duration::from_secs(5),
            hold_lease(work, Duration::from_millis(20), move || {
                let (step, seen) = (step_done.clone(), seen.clone());
                async move {
                    if seen.fetch_add(1, Ordering::SeqCst) == 0 {
                        step.notified().await;
                    }
                    Ok::<_, String>(true)
                }
            }),
        )
        .await;
        assert_eq!(r, Ok(Held::Done(7)), "the work finished while its first renewal waited for it");
        assert!(step_seen.load(Ordering::SeqCst) >= 1);
    }
}
