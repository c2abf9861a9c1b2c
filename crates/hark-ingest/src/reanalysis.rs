//! Re-analysis: after a search edit with "re-analyze previous data", a tracker's stored posts are
//! matched again against its new search; posts that no longer match leave the tracker (and its
//! rollups) and subtracker labels are refreshed. Progress is stored as it goes, so a restart
//! resumes from the beginning of the remaining work without double counting.

use std::time::Duration;

use hark_core::{now_millis, MatchScratch, Post};
use hark_store::Store;

use crate::pipeline::{compile, sentiment_text, IngestError};

const PAGE: i64 = 2_000;

/// Runs the oldest pending re-analysis to the end. Returns false when none was pending.
pub async fn run_next(store: &Store) -> Result<bool, IngestError> {
    let Some(job) = store.pending_reanalysis().await? else {
        return Ok(false);
    };
    let now = now_millis();
    let Some(tracker) = store.tracker_by_id(job.tracker_id).await? else {
        store.set_reanalysis_progress(job.id, 0, 0, 0, Some(now)).await?;
        return Ok(true);
    };
    if let Some(latest) = store.latest_reanalysis(tracker.id).await? {
        if latest.id != job.id {
            // A newer edit supersedes this one; only the newest search matters.
            store.supersede_reanalysis(tracker.id, latest.id, now).await?;
            return Ok(true);
        }
    }
    let matcher = compile(&[(tracker.id, tracker.criteria.clone())])?;
    let total = store.count_links(tracker.id).await?;
    if let Some((before, after)) = store.reanalysis_criteria(job.id).await? {
        if sentiment_only(&before, &after) {
            return rescore(store, &matcher, tracker.id, job.id, total).await.map(|_| true);
        }
    }
    let (mut processed, mut removed, mut after) = (0i64, 0i64, 0i64);
    let mut scratch = MatchScratch::new();
    let mut matches = Vec::new();
    store.set_reanalysis_progress(job.id, 0, total, 0, None).await?;
    loop {
        let page = store.tracker_posts_page(tracker.id, after, PAGE).await?;
        let Some(last) = page.last() else { break };
        after = last.post_id;
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
        removed += store.unlink_posts(tracker.id, &gone, now_millis()).await? as i64;
        store.set_subtrackers(tracker.id, &relabel).await?;
        store.set_sentiment_rules(tracker.id, &rules, now_millis()).await?;
        processed += page.len() as i64;
        store.set_reanalysis_progress(job.id, processed, total.max(processed), removed, None).await?;
        tokio::task::yield_now().await;
    }
    store.set_reanalysis_progress(job.id, processed, total.max(processed), removed, Some(now_millis())).await?;
    tracing::info!(tracker = tracker.id, processed, removed, "re-analysis finished");
    Ok(true)
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

/// A re-analysis after a change of the custom sentiment keywords alone: each stored post's text is
/// read (not the whole post), the keywords give its rule, and only the posts whose rule changed
/// are written, many to a statement.
async fn rescore(store: &Store, matcher: &crate::pipeline::Matcher, tracker_id: i64, job: i64, total: i64) -> Result<(), IngestError> {
    let (mut processed, mut after) = (0i64, 0i64);
    store.set_reanalysis_progress(job, 0, total, 0, None).await?;
    loop {
        let page = store.tracker_post_texts(tracker_id, after, TEXT_PAGE).await?;
        let Some(last) = page.last() else { break };
        after = last.0;
        let rules: Vec<(i64, Option<&'static str>)> = page
            .iter()
            .filter_map(|(id, text, title, stored)| {
                let text = if text.trim().is_empty() { title.as_deref().unwrap_or("") } else { text.as_str() };
                let rule = matcher.keyword_bucket(tracker_id, text);
                (rule != stored.as_deref()).then_some((*id, rule))
            })
            .collect();
        store.set_sentiment_rules(tracker_id, &rules, now_millis()).await?;
        processed += page.len() as i64;
        store.set_reanalysis_progress(job, processed, total.max(processed), 0, None).await?;
        tokio::task::yield_now().await;
    }
    store.set_reanalysis_progress(job, processed, total.max(processed), 0, Some(now_millis())).await?;
    tracing::info!(tracker = tracker_id, processed, "sentiment re-analysis finished");
    Ok(())
}

/// Works through pending re-analyses, checking every `every`.
pub async fn run_worker(store: Store, every: Duration) {
    loop {
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
    use super::sentiment_only;

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
