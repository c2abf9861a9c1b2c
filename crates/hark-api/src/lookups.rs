//! The lookups a read makes before its answer (the session's user, the tracker a path's hash
//! names, a team member's role), kept in memory for GET requests while nothing could have changed
//! them.
//!
//! A kept answer ([`crate::answers`]) costs microseconds, but these lookups were a database query
//! each, on SQLite two hand-offs to a connection's thread: under 200 looping dashboard viewers
//! they were most of the server's work. A kept lookup is reused while the process's change
//! counter ([`hark_store::changes`]) stands still. Every change of a session, user, tracker or
//! member row by any of the process's SQLite connections moves it, and so does every API request
//! other than a GET once answered, so a read after a change here sees it. A change by another
//! process on the same file (the `sqlite3` shell, a `hark` command beside a server), or one
//! committing while a lookup is read, is seen within [`LOOKUP_TTL`]: no lookup is kept longer.
//! Only what exists is kept: an unknown session or tracker is asked of the database each time.
//!
//! On PostgreSQL several servers write one database, and sessions and roles are kept: each
//! statement changing such a row sends a notice when it commits, and a server listening for them
//! moves its counter at each ([`hark_store::Store::hear_changes`]), so another server's change is
//! seen about as soon as it commits, and within [`LOOKUP_TTL`] whatever happens to the notices.
//! While the server is not listening (its listening connection lost), nothing is kept. Tracker
//! rows are read every time there: every write moves their version, and a write of this server's
//! own background work would be seen only when its notice came back.

use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use hark_store::{TrackerRow, UserRow};
use moka::future::Cache;

use crate::error::ApiResult;
use hark_core::Permission;

/// The longest a lookup is kept: how late a change made by another process may be seen.
pub const LOOKUP_TTL: Duration = Duration::from_millis(100);

/// Lookups kept per kind.
const CAPACITY: u64 = 10_000;

/// A kept value and the change counter it was read under.
#[derive(Clone)]
struct Kept<T> {
    at: u64,
    value: T,
}

/// The kept lookups of a server.
pub struct Lookups {
    sessions: Cache<String, Kept<UserRow>>,
    trackers: Cache<String, Kept<TrackerRow>>,
    roles: Cache<(i64, i64, bool), Kept<Permission>>,
    /// When anything is kept.
    keep: Keep,
}

/// When lookups are kept.
enum Keep {
    /// Always (SQLite: the update hook sees every change of the process's connections).
    Always,
    /// While the flag says the server hears the database's change notices (PostgreSQL).
    WhileHeard(Arc<AtomicBool>),
    /// Never (PostgreSQL without a listener).
    Never,
}

impl Lookups {
    /// The lookups of a server on `backend`: kept on SQLite; on PostgreSQL while `heard` (from
    /// [`hark_store::Store::hear_changes`]) is true, and never without it.
    pub fn new(backend: hark_store::Backend, heard: Option<Arc<AtomicBool>>) -> Self {
        let keep = match (backend, heard) {
            (hark_store::Backend::Sqlite, _) => Keep::Always,
            (hark_store::Backend::Postgres, Some(h)) => Keep::WhileHeard(h),
            (hark_store::Backend::Postgres, None) => Keep::Never,
        };
        Self { sessions: cache(), trackers: cache(), roles: cache(), keep }
    }

    /// Whether a lookup may be kept now.
    fn on(&self) -> bool {
        match &self.keep {
            Keep::Always => true,
            Keep::WhileHeard(h) => h.load(Ordering::Acquire),
            Keep::Never => false,
        }
    }
}

fn cache<K: Hash + Eq + Send + Sync + 'static, V: Clone + Send + Sync + 'static>() -> Cache<K, V> {
    Cache::builder().max_capacity(CAPACITY).time_to_live(LOOKUP_TTL).build()
}

/// `load`'s value, or the one kept for `key` when the change counter has not moved since it was
/// read (`at`, taken before `load` runs, so a value read across a change is not reused).
async fn kept<K, V, F>(cache: &Cache<K, Kept<V>>, key: K, at: u64, load: F) -> ApiResult<Option<V>>
where
    K: Hash + Eq + Send + Sync + 'static,
    V: Clone + Send + Sync + 'static,
    F: std::future::Future<Output = ApiResult<Option<V>>>,
{
    if let Some(k) = cache.get(&key).await {
        if k.at == at {
            return Ok(Some(k.value));
        }
    }
    let value = load.await?;
    match &value {
        Some(v) => cache.insert(key, Kept { at, value: v.clone() }).await,
        None => cache.invalidate(&key).await,
    }
    Ok(value)
}

impl Lookups {
    /// `load`'s value, or the one kept under `key` when lookups are kept at all.
    async fn look<K, V, F>(&self, cache: &Cache<K, Kept<V>>, key: K, load: F) -> ApiResult<Option<V>>
    where
        K: Hash + Eq + Send + Sync + 'static,
        V: Clone + Send + Sync + 'static,
        F: std::future::Future<Output = ApiResult<Option<V>>>,
    {
        if !self.on() {
            return load.await;
        }
        kept(cache, key, hark_store::changes(), load).await
    }

    /// The user of a session (by its token's digest), as `load` reads it.
    pub async fn session<F>(&self, token_hash: &str, load: F) -> ApiResult<Option<UserRow>>
    where
        F: std::future::Future<Output = ApiResult<Option<UserRow>>>,
    {
        self.look(&self.sessions, token_hash.to_string(), load).await
    }

    /// The tracker of a hash, as `load` reads it.
    pub async fn tracker<F>(&self, hash: &str, load: F) -> ApiResult<Option<TrackerRow>>
    where
        F: std::future::Future<Output = ApiResult<Option<TrackerRow>>>,
    {
        // On PostgreSQL the tracker row is always read: it carries the version every write moves
        // (the kept answers' name), and this server's own background writes (collection, the
        // demo feeder) would be seen only once their notice came back.
        if matches!(self.keep, Keep::WhileHeard(_)) {
            return load.await;
        }
        self.look(&self.trackers, hash.to_string(), load).await
    }

    /// A user's role on a tracker, as `load` reads it.
    pub async fn role<F>(&self, tracker_id: i64, user_id: i64, is_admin: bool, load: F) -> ApiResult<Permission>
    where
        F: std::future::Future<Output = ApiResult<Permission>>,
    {
        let load = async { load.await.map(Some) };
        Ok(self.look(&self.roles, (tracker_id, user_id, is_admin), load).await?.unwrap_or(Permission::NoAccess))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    async fn read(c: &Cache<String, Kept<i64>>, at: u64, loads: &AtomicUsize, value: Option<i64>) -> Option<i64> {
        kept(c, "k".to_string(), at, async {
            loads.fetch_add(1, Ordering::SeqCst);
            Ok(value)
        })
        .await
        .unwrap()
    }

    #[tokio::test]
    async fn a_lookup_is_reused_until_a_change_or_its_time_is_up() {
        let heard = Arc::new(AtomicBool::new(false));
        let pg = Lookups::new(hark_store::Backend::Postgres, Some(heard.clone()));
        assert!(Lookups::new(hark_store::Backend::Sqlite, None).on() && !Lookups::new(hark_store::Backend::Postgres, None).on());
        assert!(!pg.on(), "not kept before the server listens");
        heard.store(true, Ordering::SeqCst);
        assert!(pg.on(), "kept while it listens");
        let c: Cache<String, Kept<i64>> = cache();
        let loads = AtomicUsize::new(0);
        assert_eq!(read(&c, 1, &loads, Some(1)).await, Some(1));
        assert_eq!(read(&c, 1, &loads, Some(2)).await, Some(1), "kept while nothing changed");
        assert_eq!(loads.load(Ordering::SeqCst), 1);
        assert_eq!(read(&c, 2, &loads, Some(3)).await, Some(3), "read again after a change");
        assert_eq!(loads.load(Ordering::SeqCst), 2);
        // Gone from the database: not kept, asked again.
        assert_eq!(read(&c, 3, &loads, None).await, None);
        assert_eq!(read(&c, 3, &loads, None).await, None);
        assert_eq!(loads.load(Ordering::SeqCst), 4);
        // Kept no longer than the time limit, whatever the counter.
        assert_eq!(read(&c, 3, &loads, Some(4)).await, Some(4));
        tokio::time::sleep(LOOKUP_TTL + Duration::from_millis(50)).await;
        assert_eq!(read(&c, 3, &loads, Some(5)).await, Some(5), "read again after the time limit");
        assert_eq!(loads.load(Ordering::SeqCst), 6);
    }
}
