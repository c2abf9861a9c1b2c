//! Store methods only tests use (the `testing` feature, or the crate's own unit tests): second
//! paths to check the fast ones against, and fixtures the app makes by other routes.

use crate::posts::{PostQuery, PostRow};
use crate::{with_pool, Result, Store};

impl Store {
    /// Post rows read to bring the in-memory topic tables up to date, since the store opened.
    pub fn topic_rows_read(&self) -> u64 {
        self.topic_tables.rows_read.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The exact number of posts matching the filters, counted over the post rows (the totals
    /// the page shows are checked against it).
    pub async fn count_posts(&self, tracker_id: i64, q: &PostQuery) -> Result<i64> {
        let (plan, _) = self.search_plans(tracker_id, q).await?;
        self.count_rows(tracker_id, q, plan, q.filter.start.unwrap_or(i64::MIN), q.filter.end.unwrap_or(i64::MAX), None).await
    }

    /// The same page by the plain plan (every matching post sorted), to check the others against.
    pub async fn query_post_page_plain(&self, tracker_id: i64, q: &PostQuery) -> Result<Vec<PostRow>> {
        let (plan, _) = self.search_plans(tracker_id, q).await?;
        self.post_page(tracker_id, q, false, plan).await
    }

    /// Puts a post tag on a tracker's post (idempotent).
    pub async fn tag_tracker_post(&self, tracker_id: i64, post_id: i64, tag_id: i64) -> Result<()> {
        with_pool!(self, |p| {
            sqlx::query("INSERT INTO post_tags (tracker_id, post_id, tag_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
                .bind(tracker_id)
                .bind(post_id)
                .bind(tag_id)
                .execute(p)
                .await
                .map(|_| ())?
        });
        Ok(())
    }

    /// A tracker's sentiment as its rollups count it, bucket by bucket (buckets at zero left out),
    /// and as its live links give it: (rollups, links).
    pub async fn sentiment_counts_both_ways(
        &self,
        tracker_id: i64,
    ) -> Result<(std::collections::BTreeMap<String, i64>, std::collections::BTreeMap<String, i64>)> {
        let rollups = "SELECT term, CAST(SUM(count) AS BIGINT) FROM rollup_terms WHERE tracker_id = $1 AND kind = 'sentiment' GROUP BY term";
        let links = format!(
            "SELECT tp.bucket, COUNT(*) FROM tracker_posts tp WHERE tp.tracker_id = $1 AND {} GROUP BY tp.bucket",
            self.backend().live_link("tp")
        );
        let (a, b): (Vec<(String, i64)>, Vec<(String, i64)>) = with_pool!(self, |p| (
            sqlx::query_as(rollups).bind(tracker_id).fetch_all(p).await?,
            sqlx::query_as(&links).bind(tracker_id).fetch_all(p).await?
        ));
        Ok((a.into_iter().filter(|(_, n)| *n != 0).collect(), b.into_iter().collect()))
    }

    /// The same store ranking influencers by SQL alone, as for a tracker too large to index.
    pub fn without_author_index(&self) -> Store {
        Store { use_author_index: false, ..self.clone() }
    }

    /// The same store counting the dashboard's keywords from the rollups only.
    pub fn without_memory_terms(&self) -> Store {
        Store { use_memory_terms: false, ..self.clone() }
    }

    /// The same store splitting every write of two posts or more on PostgreSQL, as it does
    /// large ones (two transactions side by side).
    pub fn splitting_writes(&self) -> Store {
        Store { split_from: 2, ..self.clone() }
    }

    /// Reads the tracker's in-memory topic table (whole the first time, the days written since
    /// after), as a page's request would in the background.
    pub async fn read_topic_table(&self, tracker_id: i64) -> Result<bool> {
        Ok(self.topic_table(tracker_id).await?.is_some())
    }

    /// Takes every connection of a SQLite file's readers' pool and keeps them until the guard is
    /// dropped; None on PostgreSQL or a database in memory (which have no write connection).
    pub async fn hold_reader_connections(&self) -> Option<Box<dyn std::any::Any + Send>> {
        let crate::Db::Sqlite(pool) = &self.db else { return None };
        self.write_gate.writer.as_ref()?;
        let mut held = Vec::new();
        for _ in 0..pool.options().get_max_connections() {
            held.push(pool.acquire().await.ok()?);
        }
        Some(Box::new(held))
    }

    /// Whether the pages take the tracker's in-memory table as read (and wait for it rather than
    /// answer from the rows) while its lock is held for writing, as an update holds it.
    pub async fn topic_table_ready_while_updated(&self, tracker_id: i64) -> bool {
        let entry = self.topic_tables.entry(tracker_id);
        let _update = entry.write().await;
        self.topic_tables.state(tracker_id) == (true, false)
    }
}

/// A user and a running tracker of theirs in `store`, for the crate's own tests; the tracker's id.
#[cfg(test)]
pub(crate) async fn user_and_tracker(store: &Store, slug: &str) -> i64 {
    let user = crate::NewUser {
        email: format!("{slug}@example.org"),
        password_hash: "x".into(),
        name: "N".into(),
        is_admin: false,
        trial: false,
        trial_expires: None,
        plan: 100,
        max_searches: 5,
        max_ignored: 5,
    };
    let u = store.create_user(&user, 1).await.expect("user");
    let tracker = crate::NewTracker {
        friendly: hark_core::Friendly::from_text(slug),
        title: slug.into(),
        owner_id: u.id,
        platforms: 1,
        criteria: "{}".into(),
        volume_limit: None,
        is_demo: false,
        is_preview_mode: false,
    };
    store.create_tracker(&tracker, 10).await.expect("tracker").id
}

/// A SQLite store in a fresh file and, when `HARK_TEST_POSTGRES_URL` is set, a PostgreSQL store on
/// a fresh database, both migrated; [`drop_postgres`] drops the database once its store is closed.
#[cfg(test)]
pub(crate) async fn stores(name: &str) -> Vec<Store> {
    let dir = std::env::temp_dir().join(format!("hark_{name}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let mut out = vec![Store::connect(&format!("sqlite://{}", dir.join("t.db").display())).await.expect("sqlite")];
    if let Some(admin) = test_postgres() {
        let db = format!("hark_test_{name}_{}", std::process::id());
        let mut c = <sqlx::PgConnection as sqlx::Connection>::connect(&admin).await.expect("admin");
        sqlx::query(&format!("DROP DATABASE IF EXISTS {db}")).execute(&mut c).await.expect("drop");
        sqlx::query(&format!("CREATE DATABASE {db}")).execute(&mut c).await.expect("create");
        let base = admin.rsplit_once('/').map_or(admin.clone(), |(b, _)| b.to_string());
        out.push(Store::connect(&format!("{base}/{db}")).await.expect("postgres"));
    }
    for s in &out {
        s.migrate().await.expect("migrate");
    }
    out
}

/// The PostgreSQL server tests may use (`HARK_TEST_POSTGRES_URL`), if any.
#[cfg(test)]
pub(crate) fn test_postgres() -> Option<String> {
    std::env::var("HARK_TEST_POSTGRES_URL").ok().filter(|u| !u.is_empty())
}

/// Drops the PostgreSQL database [`stores`] made for `name`, if any.
#[cfg(test)]
pub(crate) async fn drop_postgres(name: &str) {
    if let Some(admin) = test_postgres() {
        let db = format!("hark_test_{name}_{}", std::process::id());
        let mut c = <sqlx::PgConnection as sqlx::Connection>::connect(&admin).await.expect("admin");
        sqlx::query(&format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)")).execute(&mut c).await.expect("drop");
    }
}
