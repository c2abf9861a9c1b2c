//! Re-analysis: after a search edit with "re-analyze previous data", a tracker's stored posts are
//! matched again against its new search; posts that no longer match leave the tracker (and its
//! rollups) and subtracker labels are refreshed. A worker leases the job (every server runs one,
//! see [`run_worker`]) and saves where it got to with each page under the lease, so a worker that
//! takes over a dead server's job goes on after the last saved page without double counting.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use hark_core::{now_millis, MatchScratch, Millis, Post};
use hark_store::{hold_lease, Held, ReanalysisPoint, Store};

use crate::pipeline::{compile, sentiment_text, IngestError, Matcher};

const PAGE: i64 = 2_000;

/// How long a worker holds a re-analysis without renewing it; it renews every third of that, so
/// a job whose server died is taken over within this time (and the worker's idle wait).
pub const LEASE: Duration = Duration::from_secs(20);

/// This process's name in re-analysis leases.
static OWNER: LazyLock<String> = LazyLock::new(|| format!("reanalysis-{}-{:08x}", std::process::id(), rand::random::<u32>()));

/// Runs the oldest pending re-analysis to the end. Returns false when none was pending.
pub async fn run_next(store: &Store) -> Result<bool, IngestError> {
    run_next_with(store, writers(store.backend())).await
}

/// [`run_next`] with `writers` writers for a sentiment-only re-analysis (the benchmark compares
/// counts).
#[doc(hidden)]
pub async fn run_next_with(store: &Store, writers: usize) -> Result<bool, IngestError> {
    run_next_as(store, &OWNER, writers, LEASE).await
}

/// One worker's turn: leases the oldest re-analysis that is free (or whose worker stopped) as
/// `owner` for `lease`, and runs it while renewing the lease. Returns false when none was free.
pub async fn run_next_as(store: &Store, owner: &str, writers: usize, lease: Duration) -> Result<bool, IngestError> {
    let lease_ms = lease.as_millis() as Millis;
    let Some(job) = store.lease_reanalysis(owner, now_millis(), now_millis() + lease_ms).await? else {
        return Ok(false);
    };
    let held = Lease { store: store.clone(), owner: owner.into(), ms: lease_ms, job: job.id };
    let renew = || {
        let (store, owner, id) = (store.clone(), owner.to_string(), job.id);
        async move { store.renew_reanalysis(id, &owner, now_millis() + lease_ms).await }
    };
    match hold_lease(run_job(&held, &job, writers), lease / 3, renew).await {
        Held::Done(Err(IngestError::LeaseLost)) | Held::Lost => {
            tracing::info!(job = job.id, "re-analysis taken over or superseded; this worker stops");
            Ok(true)
        }
        Held::Done(r) => r.map(|_| true),
    }
}

/// A leased job's saves: each renews the lease and fails with [`IngestError::LeaseLost`] when
/// another worker has it.
#[derive(Clone)]
struct Lease {
    store: Store,
    owner: Arc<str>,
    ms: Millis,
    job: i64,
}

impl Lease {
    async fn save(&self, point: ReanalysisPoint, done: bool) -> Result<(), IngestError> {
        let now = now_millis();
        let kept = self.store.save_reanalysis(self.job, &self.owner, point, done.then_some(now), now + self.ms).await?;
        if kept {
            Ok(())
        } else {
            Err(IngestError::LeaseLost)
        }
    }
}

async fn run_job(lease: &Lease, job: &hark_store::Reanalysis, writers: usize) -> Result<(), IngestError> {
    let store = &lease.store;
    let now = now_millis();
    let Some(tracker) = store.tracker_by_id(job.tracker_id).await? else {
        return lease.save(ReanalysisPoint::default(), true).await;
    };
    if let Some(latest) = store.latest_reanalysis(tracker.id).await? {
        if latest.id != job.id {
            // A newer edit supersedes this one; only the newest search matters.
            store.supersede_reanalysis(tracker.id, latest.id, now).await?;
            return Ok(());
        }
    }
    let matcher = compile(&[(tracker.id, tracker.criteria.clone())])?;
    let total = store.count_links(tracker.id).await?;
    if let Some((before, after)) = store.reanalysis_criteria(job.id).await? {
        if sentiment_only(&before, &after) {
            return rescore(lease, matcher, tracker.id, total, writers).await;
        }
    }
    // A job taken over goes on after the last page its earlier worker saved.
    let mut point = ReanalysisPoint { processed: job.processed, total: total.max(job.processed), removed: job.removed, after_post_id: job.after_post_id };
    let mut scratch = MatchScratch::new();
    let mut matches = Vec::new();
    lease.save(point, false).await?;
    loop {
        let page = store.tracker_posts_page(tracker.id, point.after_post_id, page_size()).await?;
        let Some(last) = page.last() else { break };
        let mut gone = Vec::new();
        let mut relabel = Vec::new();
        let mut rules = Vec::new();
        for stored in &page {
            let post: Post = match stored.post() {
                Ok(p) => p,
                Err(_) => continue,
            };
            matcher.match_post_with(&mut scratch, &post, stored.country.as_deref(), stored.lang.as_deref(), &mut matches);
            let kept = matches.iter().any(|m| m.tracker_id == tracker.id);
            let rule = matcher.keyword_bucket(tracker.id, sentiment_text(&post));
            if kept && rule != stored.sentiment_rule.as_deref() {
                rules.push((stored.post_id, rule));
            }
            match matches.iter().find(|m| m.tracker_id == tracker.id) {
                None => gone.push(stored.post_id),
                Some(m) if m.subtrackers as i64 != stored.subtrackers => relabel.push((stored.post_id, m.subtrackers as i64)),
                Some(_) => {}
            }
        }
        point.removed += store.unlink_posts(tracker.id, &gone, now_millis()).await? as i64;
        store.set_subtrackers(tracker.id, &relabel).await?;
        store.set_sentiment_rules(tracker.id, &rules, now_millis()).await?;
        point.processed += page.len() as i64;
        point.total = point.total.max(point.processed);
        point.after_post_id = last.post_id;
        lease.save(point, false).await?;
        if let Some(pause) = page_delay() {
            tokio::time::sleep(pause).await;
        }
        tokio::task::yield_now().await;
    }
    lease.save(point, true).await?;
    tracing::info!(tracker = tracker.id, processed = point.processed, removed = point.removed, "re-analysis finished");
    Ok(())
}

/// Posts a page holds: [`PAGE`], or `HARK_REANALYSIS_PAGE_SIZE` for tests that stop a server in
/// the middle of a re-analysis of a few posts.
fn page_size() -> i64 {
    static SIZE: LazyLock<i64> = LazyLock::new(|| {
        std::env::var("HARK_REANALYSIS_PAGE_SIZE").ok().and_then(|v| v.parse::<i64>().ok()).filter(|n| *n > 0).unwrap_or(PAGE)
    });
    *SIZE
}

/// A pause after each saved page (`HARK_REANALYSIS_PAGE_DELAY_MS`), for tests that stop a server
/// in the middle of a re-analysis.
fn page_delay() -> Option<Duration> {
    static DELAY: LazyLock<Option<Duration>> = LazyLock::new(|| {
        std::env::var("HARK_REANALYSIS_PAGE_DELAY_MS").ok().and_then(|v| v.parse::<u64>().ok()).filter(|ms| *ms > 0).map(Duration::from_millis)
    });
    *DELAY
}

/// Whether two criteria (JSON) differ in their custom sentiment keywords alone: then no post can
/// leave the tracker or change subtrackers, and only the keyword rules are computed again.
fn sentiment_only(before: &str, after: &str) -> bool {
    let strip = |s: &str| -> Option<serde_json::Value> {
        let mut v: serde_json::Value = serde_json::from_str(s).ok()?;
        v.as_object_mut()?.remove("sentiment_keywords");
        v.as_object_mut()?.remove("sentimentKeywords");
        Some(v)
    };
    matches!((strip(before), strip(after)), (Some(a), Some(b)) if a == b)
}

/// Posts read per page by a sentiment-only re-analysis.
const TEXT_PAGE: i64 = 20_000;
/// A sentiment-only re-analysis cuts the tracker's post ids into this many ranges, which
/// `READERS` tasks take in turn (so one slow range does not leave a reader idle).
const RANGES: i64 = 32;
const READERS: usize = 2;
/// Changed posts written in one transaction at most (when the readers are ahead of the writer).
const WRITE_BATCH: usize = 40_000;

/// Writers of a sentiment-only re-analysis on each database. On PostgreSQL a post whose bucket
/// moves is a new row version with an entry in each of the link's indexes; that is most of the
/// work, and two transactions do it side by side on two cores (the readers are done long before).
/// SQLite writes one transaction at a time, so a second writer would only wait.
pub fn writers(backend: hark_store::Backend) -> usize {
    match backend {
        hark_store::Backend::Postgres => 2,
        hark_store::Backend::Sqlite => 1,
    }
}

/// A re-analysis after a change of the custom sentiment keywords alone: each stored post's text is
/// read (not the whole post), the keywords give its rule, and only the posts whose rule changed
/// are written, many to a statement. Reading the texts and writing the posts that moved are the
/// work, so they overlap: two readers read ranges of post ids side by side (each on its own
/// connection), and `writers` writers write what they found while they read on (each batch by one
/// writer; the rollups by one writer at a time).
async fn rescore(lease: &Lease, matcher: Matcher, tracker_id: i64, total: i64, writers: usize) -> Result<(), IngestError> {
    let store = &lease.store;
    // Rules are set, never counted: a job taken over starts again from the first post.
    lease.save(ReanalysisPoint { total, ..Default::default() }, false).await?;
    let mut processed = 0i64;
    if let Some((lo, hi)) = store.link_id_bounds(tracker_id).await? {
        let ranges = Arc::new(id_ranges(lo, hi, RANGES));
        let next = Arc::new(AtomicUsize::new(0));
        let matcher = Arc::new(matcher);
        let (tx, rx) = tokio::sync::mpsc::channel::<(usize, Vec<(i64, Option<&'static str>)>)>(READERS * 4);
        let mut readers = tokio::task::JoinSet::new();
        for _ in 0..READERS {
            let (store, ranges, next, matcher, tx) = (store.clone(), ranges.clone(), next.clone(), matcher.clone(), tx.clone());
            readers.spawn(async move {
                while let Some(&(mut after, until)) = ranges.get(next.fetch_add(1, Ordering::Relaxed)) {
                    loop {
                        let page = store.tracker_post_texts(tracker_id, after, until, TEXT_PAGE).await?;
                        let Some(last) = page.last() else { break };
                        after = last.0;
                        let rules = page
                            .iter()
                            .filter_map(|(id, text, title, stored)| {
                                let text = if text.trim().is_empty() { title.as_deref().unwrap_or("") } else { text.as_str() };
                                let rule = matcher.keyword_bucket(tracker_id, text);
                                (rule != stored.as_deref()).then_some((*id, rule))
                            })
                            .collect();
                        if tx.send((page.len(), rules)).await.is_err() {
                            // The writer stopped on an error, which it returns.
                            return Ok(());
                        }
                    }
                }
                Ok::<_, IngestError>(())
            });
        }
        drop(tx);
        let rx = Arc::new(tokio::sync::Mutex::new(rx));
        // The rollups' turn, and the count of posts read whose changes are written (the progress
        // is stored under its lock, so it never goes back).
        let turn = Arc::new(tokio::sync::Mutex::new(()));
        let written = Arc::new(tokio::sync::Mutex::new(0i64));
        let mut writing = tokio::task::JoinSet::new();
        for _ in 0..writers.max(1) {
            let (store, rx, turn, written, lease) = (store.clone(), rx.clone(), turn.clone(), written.clone(), lease.clone());
            writing.spawn(async move {
                loop {
                    let (mut read, mut rules) = {
                        let mut rx = rx.lock().await;
                        let Some(first) = rx.recv().await else { break };
                        first
                    };
                    // What the readers found meanwhile is written in the same transaction: each
                    // changed post rewrites index pages that its neighbours in the batch share.
                    {
                        let mut rx = rx.lock().await;
                        while rules.len() < WRITE_BATCH {
                            match rx.try_recv() {
                                Ok((n, more)) => {
                                    read += n;
                                    rules.extend(more);
                                }
                                Err(_) => break,
                            }
                        }
                    }
                    if let Err(e) = store.set_sentiment_rules_in_turn(tracker_id, &rules, now_millis(), Some(&turn)).await {
                        // The readers stop when no one receives; the other writers with them.
                        rx.lock().await.close();
                        return Err(IngestError::from(e));
                    }
                    let mut written = written.lock().await;
                    *written += read as i64;
                    if let Err(e) = lease.save(ReanalysisPoint { processed: *written, total: total.max(*written), ..Default::default() }, false).await {
                        rx.lock().await.close();
                        return Err(e);
                    }
                }
                Ok::<_, IngestError>(())
            });
        }
        let mut failed = None;
        while let Some(done) = writing.join_next().await {
            if let Err(e) = done.map_err(|e| IngestError::Task(e.to_string())).and_then(|r| r) {
                failed.get_or_insert(e);
            }
        }
        while let Some(done) = readers.join_next().await {
            if let Err(e) = done.map_err(|e| IngestError::Task(e.to_string())).and_then(|r| r) {
                failed.get_or_insert(e);
            }
        }
        if let Some(e) = failed {
            return Err(e);
        }
        processed = *written.lock().await;
    }
    lease.save(ReanalysisPoint { processed, total: total.max(processed), ..Default::default() }, true).await?;
    tracing::info!(tracker = tracker_id, processed, "sentiment re-analysis finished");
    Ok(())
}

/// Ids `lo..=hi` cut into at most `n` ranges (after, until] that cover them once each.
fn id_ranges(lo: i64, hi: i64, n: i64) -> Vec<(i64, i64)> {
    let step = (hi - lo) / n.max(1) + 1;
    (0..).map(|i| lo - 1 + i * step).take_while(|a| *a < hi).map(|a| (a, (a + step).min(hi))).collect()
}

/// Works through pending re-analyses, checking every `every`.
pub async fn run_worker(store: Store, every: Duration) {
    loop {
        // Stored posts are scored with this build's sentiment model first, so the re-analyses
        // after it see the buckets the model gives.
        if let Err(e) = crate::sentiment_model::run(&store).await {
            tracing::warn!(error = %e, "scoring stored posts with the sentiment model failed; will retry");
            tokio::time::sleep(every).await;
            continue;
        }
        match run_next(&store).await {
            Ok(true) => continue,
            Ok(false) => {}
            Err(e) => tracing::warn!(error = %e, "re-analysis failed; will retry"),
        }
        tokio::time::sleep(every).await;
    }
}

#[cfg(test)]
mod tests {
    use super::{id_ranges, sentiment_only};

    #[test]
    fn id_ranges_cover_every_id_once() {
        for (lo, hi, n) in [(1, 1, 32), (1, 2, 32), (5, 1_000, 32), (1, 31, 32), (1, 33, 32), (7, 1_000_003, 32), (3, 9, 1)] {
            let r = id_ranges(lo, hi, n);
            assert!(r.len() as i64 <= n && !r.is_empty(), "{lo}..{hi}: {r:?}");
            assert_eq!(r[0].0, lo - 1);
            assert_eq!(r.last().unwrap().1, hi);
            assert!(r.windows(2).all(|w| w[0].1 == w[1].0 && w[0].0 < w[0].1), "{r:?}");
        }
    }

    #[test]
    fn only_a_keyword_change_is_sentiment_only() {
        let a = r#"{"search":{"include":[["coffee"]],"exclude":[]},"platforms":1}"#;
        let b = r#"{"search":{"include":[["coffee"]],"exclude":[]},"platforms":1,"sentiment_keywords":{"positive":["yum"],"neutral":[],"negative":[]}}"#;
        let c = r#"{"search":{"include":[["tea"]],"exclude":[]},"platforms":1,"sentiment_keywords":{"positive":["yum"],"neutral":[],"negative":[]}}"#;
        assert!(sentiment_only(a, b));
        assert!(!sentiment_only(a, c));
        assert!(!sentiment_only(a, "not json"));
    }
}
