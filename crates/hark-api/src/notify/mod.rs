//! Alerts and periodic reports. Every server runs [`run_worker`]: once a minute the engine
//! ([`run_round`]) judges each tracker's closed hours and new posts against its settings and
//! writes what it decided — the alerts (events) and the messages to send (deliveries) — with its
//! new memory in one transaction; the sender ([`deliver_due`]) leases due deliveries and sends them
//! by e-mail, webhook or Slack, retrying failures with back-off. Both take the time as an argument,
//! so tests drive them on a simulated clock.

pub mod schedule;
pub mod send;

use std::time::Duration;

use hark_core::notify::{negative_shift, AlertFrequency, NotificationSettings, PostReach};
use hark_core::spike::{detect, HourlySeries, WEEKS, WINDOW_HOURS};
use hark_core::Millis;
use hark_store::{EngineMemory, EngineStep, NewEvent, NotificationRow, TrackerRow};
use serde_json::json;

use crate::error::{ApiError, ApiResult};
use crate::AppState;

pub use schedule::{next_report_due, report_period};

/// The unsubscribe link's API path (POST: one click, no session).
pub const UNSUBSCRIBE_PATH: &str = "/api/v1/unsubscribe";

const HOUR: Millis = 3_600_000;
const DAY: Millis = 24 * HOUR;
/// Hours judged at most after a pause (a stopped server): older bursts are no longer news.
const CATCH_UP_HOURS: i64 = 48;
/// Cooldown of negative-sentiment alerts.
const NEGATIVE_COOLDOWN: Millis = 12 * HOUR;
/// Posts matched this recently may still be committing; influencer alerts look at them next time.
const SETTLE_MS: Millis = 30_000;
/// How long a sender holds a delivery without renewing it; it renews every third of it while it
/// makes and sends the message (a large report's PDF takes a while), so a dead server's
/// deliveries move on within this time.
pub const DELIVERY_LEASE: Millis = 20_000;
/// Posts looked at for influencer alerts in one round.
const INFLUENCER_BATCH: i64 = 1000;
/// Tries of a delivery that keeps failing for a reason that may pass (about two days at the
/// longest back-off) before it is failed for good.
pub const MAX_ATTEMPTS: i64 = 50;

/// The wait before try `attempts + 1`: 30 s, doubling, at most an hour.
pub fn backoff(attempts: i64) -> Millis {
    let n = attempts.clamp(1, 20) as u32 - 1;
    (30_000i64.saturating_mul(1 << n.min(10))).min(HOUR)
}

fn floor_hour(t: Millis) -> Millis {
    t - t.rem_euclid(HOUR)
}

/// A new tracker's memory: judging starts with the next closed hour, influencer alerts with the
/// next posts, the first report at the end of the current period.
pub fn fresh_memory(settings: &NotificationSettings, now: Millis) -> EngineMemory {
    let last_closed = floor_hour(now) - HOUR;
    EngineMemory {
        spike_checked_hour: Some(last_closed),
        negative_checked_hour: Some(last_closed),
        influencer_checked_at: Some(now - SETTLE_MS),
        report_due_at: settings.report.enabled.then(|| next_report_due(settings.report.frequency, now)),
        ..Default::default()
    }
}

/// What a round did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct RoundStats {
    pub trackers: usize,
    pub events: usize,
    pub deliveries: usize,
}

/// One round of the engine at `now`: trackers without settings get the defaults, then each
/// tracker's step is decided and written.
pub async fn run_round(state: &AppState, now: Millis) -> ApiResult<RoundStats> {
    for (tracker_id, email) in state.store.trackers_without_notifications().await? {
        let settings = NotificationSettings::defaults(&email);
        let json = serde_json::to_string(&settings).map_err(|e| ApiError::Internal(e.to_string()))?;
        state.store.ensure_notification_settings(tracker_id, &json, &fresh_memory(&settings, now), None, now).await?;
    }
    let mut stats = RoundStats::default();
    for row in state.store.all_notification_settings().await? {
        let Some(tracker) = state.store.tracker_by_id(row.tracker_id).await? else { continue };
        if tracker.is_demo {
            continue;
        }
        let settings: NotificationSettings = match serde_json::from_str(&row.settings) {
            Ok(s) => s,
            Err(e) => {
                tracing::warn!(tracker = row.tracker_id, error = %e, "notification settings unreadable");
                continue;
            }
        };
        match step(state, &tracker, &row, &settings, now).await {
            Ok(Some(step)) => {
                if state.store.save_engine_step(&step).await?.is_some() {
                    stats.trackers += 1;
                    stats.events += step.events.len();
                    stats.deliveries += step.deliveries.len();
                }
            }
            Ok(None) => {}
            Err(e) => tracing::warn!(tracker = row.tracker_id, error = %e, "alerts not judged"),
        }
    }
    Ok(stats)
}

/// Decides one tracker's step; `None` when nothing changed.
async fn step(
    state: &AppState,
    tracker: &TrackerRow,
    row: &NotificationRow,
    s: &NotificationSettings,
    now: Millis,
) -> ApiResult<Option<EngineStep>> {
    let mut m = row.memory();
    let mut events: Vec<NewEvent> = vec![];
    let last_closed = floor_hour(now) - HOUR;
    let alerts_on = s.alerts.frequency != AlertFrequency::Off;

    // Activity spikes: every closed hour not yet judged, in order.
    let first = m.spike_checked_hour.map_or(last_closed, |h| h + HOUR).max(last_closed - (CATCH_UP_HOURS - 1) * HOUR);
    if first <= last_closed {
        if alerts_on && s.alerts.spike {
            events.extend(spikes(state, tracker, s, &mut m, first, last_closed).await?);
        }
        m.spike_checked_hour = Some(last_closed);
    }

    // Negative sentiment: the latest closed window against the week before it.
    if m.negative_checked_hour.is_none_or(|h| h < last_closed) {
        if alerts_on && s.alerts.negative_sentiment {
            let start = last_closed - (WINDOW_HOURS as i64 - 1) * HOUR;
            let end = last_closed + HOUR;
            let (wp, wn) = state.store.negative_counts(tracker.id, start, end).await?;
            let (bp, bn) = state.store.negative_counts(tracker.id, start - 7 * DAY, start).await?;
            let shift = negative_shift(wp as u64, wn as u64, bp as u64, bn as u64);
            let above = shift.is_some_and(|x| x.above);
            let cooled = m.negative_last_alert.is_none_or(|t| last_closed - t >= NEGATIVE_COOLDOWN);
            if let Some(x) = shift.filter(|x| x.above && !m.negative_above && cooled) {
                m.negative_last_alert = Some(last_closed);
                events.push(NewEvent {
                    kind: "negative_sentiment",
                    subject: format!("Negative sentiment on {}: {:.0}% of posts", tracker.title, x.share * 100.0),
                    reason: format!(
                        "{} of {} posts in the 2 hours to {} were negative ({:.0}%), against {:.0}% in the week before",
                        x.window_negative,
                        x.window_posts,
                        schedule::clock(end),
                        x.share * 100.0,
                        x.usual_share * 100.0
                    ),
                    figures: json!({"start": start, "end": end, "shift": x}).to_string(),
                });
            }
            m.negative_above = above;
        } else {
            m.negative_above = false;
        }
        m.negative_checked_hour = Some(last_closed);
    }

    // Influencers: posts matched since the last look by accounts past a threshold.
    let until = now - SETTLE_MS;
    let after = m.influencer_checked_at.unwrap_or(until);
    if until > after {
        let rules = influencer_rules(&s.alerts.influencers);
        let mut checked = until;
        if alerts_on && !rules.is_empty() {
            let posts = state.store.influencer_alert_posts(tracker.id, &rules, after, until, until - 7 * DAY, INFLUENCER_BATCH).await?;
            // A full batch: the rest are looked at next round, from the last one seen.
            if posts.len() as i64 == INFLUENCER_BATCH {
                checked = posts.last().map_or(until, |p| p.matched_at);
            }
            let mut hits = vec![];
            for p in posts {
                let reach = PostReach {
                    followers: p.followers.max(0) as u64,
                    shares: p.shares.max(0) as u64,
                    likes: p.likes.max(0) as u64,
                    views: p.views.max(0) as u64,
                    verified: p.verified,
                };
                if let Some(why) = s.alerts.influencers.reason(&p.platform, &reach) {
                    let text: String = p.text.chars().take(200).collect();
                    hits.push(json!({"platform": p.platform, "username": p.author_username, "name": p.author_name,
                        "followers": p.followers, "why": why, "url": p.url, "text": text, "createdAt": p.created_at}));
                }
            }
            if !hits.is_empty() {
                let lines: Vec<String> = hits
                    .iter()
                    .take(10)
                    .map(|h| format!("@{} on {} ({}): {}", h["username"].as_str().unwrap_or(""), h["platform"].as_str().unwrap_or(""),
                        h["why"].as_str().unwrap_or(""), h["text"].as_str().unwrap_or("")))
                    .collect();
                let n = hits.len();
                events.push(NewEvent {
                    kind: "influencer",
                    subject: if n == 1 {
                        format!("An influential account posted about {}", tracker.title)
                    } else {
                        format!("{n} posts from influential accounts about {}", tracker.title)
                    },
                    reason: lines.join("\n"),
                    figures: json!({"posts": hits}).to_string(),
                });
            }
        }
        m.influencer_checked_at = Some(checked);
    }

    let mut deliveries = vec![];
    let mut queue_through = None;
    let mut events_sent = false;
    match s.alerts.frequency {
        AlertFrequency::Realtime if !events.is_empty() || m.digest_due_at.is_some() => {
            // Alerts still waiting from a digest frequency go out now with the new ones.
            let waiting = if m.digest_due_at.is_some() { state.store.waiting_events(tracker.id).await? } else { vec![] };
            let ids: Vec<i64> = waiting.iter().map(|e| e.id).collect();
            queue_through = ids.last().copied();
            m.digest_due_at = (waiting.len() >= hark_store::WAITING_BATCH).then_some(now);
            let n = waiting.len() + events.len();
            if n > 0 {
                let (kind, subject) = match (waiting.first(), events.first()) {
                    (None, Some(e)) if n == 1 => (e.kind, e.subject.clone()),
                    _ => ("digest", format!("{n} alerts about {}", tracker.title)),
                };
                let reason = waiting.iter().map(|e| e.reason.as_str()).chain(events.iter().map(|e| e.reason.as_str())).collect::<Vec<_>>().join("\n\n");
                let payload = json!({"events": "new", "digest": ids}).to_string();
                deliveries = send::fan_out(state, s, &s.alerts.recipients, kind, &subject, &reason, &payload);
            }
            events_sent = true;
        }
        AlertFrequency::Hourly | AlertFrequency::Daily => {
            let period = s.alerts.frequency.digest_ms().unwrap_or(HOUR);
            if !events.is_empty() && m.digest_due_at.is_none() {
                m.digest_due_at = Some(now - now.rem_euclid(period) + period);
            }
            if m.digest_due_at.is_some_and(|due| due <= now) {
                let waiting = state.store.waiting_events(tracker.id).await?;
                let ids: Vec<i64> = waiting.iter().map(|e| e.id).collect();
                // The new events go out in this digest too.
                if !waiting.is_empty() || !events.is_empty() {
                    let n = waiting.len() + events.len();
                    let every = if s.alerts.frequency == AlertFrequency::Hourly { "hourly" } else { "daily" };
                    let subject = format!("{} {every} digest: {n} alert{}", tracker.title, if n == 1 { "" } else { "s" });
                    let reason = waiting.iter().map(|e| e.reason.as_str()).chain(events.iter().map(|e| e.reason.as_str())).collect::<Vec<_>>().join("\n\n");
                    let payload = json!({"events": "new", "digest": ids}).to_string();
                    deliveries = send::fan_out(state, s, &s.alerts.recipients, "digest", &subject, &reason, &payload);
                    queue_through = ids.last().copied();
                    events_sent = true;
                }
                // More waiting than one digest holds: the next one at once.
                m.digest_due_at = (waiting.len() >= hark_store::WAITING_BATCH).then_some(now);
            }
        }
        AlertFrequency::Off => {
            // Alerts switched off: what was waiting for a digest is dropped, not sent weeks later.
            if m.digest_due_at.take().is_some() {
                queue_through = state.store.waiting_events(tracker.id).await?.last().map(|e| e.id);
            }
        }
        _ => {}
    }

    // The periodic report, when its period has ended.
    if !s.report.enabled {
        m.report_due_at = None;
    } else if m.report_due_at.is_none() {
        m.report_due_at = Some(next_report_due(s.report.frequency, now));
    } else if let Some(due) = m.report_due_at.filter(|d| *d <= now) {
        // After a long stop only the latest ended period is reported.
        let due = if next_report_due(s.report.frequency, due) <= now { schedule::period_start(s.report.frequency, now) } else { due };
        let (start, end) = report_period(s.report.frequency, due);
        let posts = state.store.dash_counts(tracker.id, &period_filter(tracker, start, end)).await?.posts;
        if posts > 0 || s.report.send_without_updates {
            let subject = format!("{} {} report: {}", tracker.title, s.report.frequency.word(), schedule::range_words(start, end));
            let reason = format!("{} posts from {}", hark_core::notify::thousands(posts.max(0) as u64), schedule::range_words(start, end));
            let payload = json!({"report": {"start": start, "end": end, "frequency": s.report.frequency}}).to_string();
            deliveries.extend(send::fan_out(state, s, &s.report.recipients, "report", &subject, &reason, &payload));
        }
        m.report_due_at = Some(next_report_due(s.report.frequency, due));
    }

    if m == row.memory() && events.is_empty() && deliveries.is_empty() {
        return Ok(None);
    }
    Ok(Some(EngineStep {
        tracker_id: tracker.id,
        version: row.engine_version,
        memory: m,
        events,
        events_sent,
        deliveries,
        queue_through,
        now,
    }))
}

/// The spike alerts of the closed hours `first..=last`.
async fn spikes(
    state: &AppState,
    tracker: &TrackerRow,
    s: &NotificationSettings,
    m: &mut EngineMemory,
    first: Millis,
    last: Millis,
) -> ApiResult<Vec<NewEvent>> {
    let Some(first_post) = state.store.first_post_hour(tracker.id).await? else { return Ok(vec![]) };
    // History from the tracker's first hour with posts: hours before it are not quiet hours.
    let from = (first - (WEEKS as i64 * 7 * 24 + WINDOW_HOURS as i64) * HOUR).max(floor_hour(first_post));
    if from > last {
        return Ok(vec![]);
    }
    let rows = state.store.hourly_post_counts(tracker.id, from, last + HOUR).await?;
    let mut counts = vec![0u64; ((last + HOUR - from) / HOUR) as usize];
    for (hour, n) in rows {
        if let Some(c) = counts.get_mut(((hour - from) / HOUR) as usize) {
            *c = n.max(0) as u64;
        }
    }
    let series = HourlySeries::new(from, &counts);
    let settings = s.spike();
    let mut out = vec![];
    let mut hour = first;
    while hour <= last {
        if let Some(d) = detect(&series, hour, &settings, m.spike_last_alert) {
            m.spike_last_alert = Some(d.at);
            out.push(NewEvent {
                kind: "spike",
                subject: format!("Activity spike on {}: {} posts in 2 hours", tracker.title, hark_core::notify::thousands(d.observed)),
                reason: format!(
                    "{} posts in the 2 hours to {} against {:.0} usual at that time of the {} (z {:.1})",
                    hark_core::notify::thousands(d.observed),
                    schedule::clock(d.window_end),
                    d.expected,
                    if matches!(d.baseline, hark_core::spike::Baseline::Weekly { .. }) { "week" } else { "day" },
                    d.z
                ),
                figures: serde_json::to_string(&d).unwrap_or_default(),
            });
        }
        hour += HOUR;
    }
    Ok(out)
}

/// The dashboard's filter for `[start, end)` over every platform of the tracker.
pub fn period_filter(tracker: &TrackerRow, start: Millis, end: Millis) -> hark_store::PageFilter {
    hark_store::PageFilter {
        platforms: hark_core::PlatformSet::from_bits(tracker.platforms),
        start: Some(start),
        end: Some(end - 1),
        ..Default::default()
    }
}

/// Sends due deliveries until none is left; how many were tried.
pub async fn deliver_due(state: &AppState, owner: &str, now: Millis) -> ApiResult<usize> {
    let mut n = 0;
    while let Some(d) = state.store.lease_delivery(owner, now, now + DELIVERY_LEASE, None).await? {
        send::attempt(state, owner, d, now).await?;
        n += 1;
    }
    Ok(n)
}

/// The alerts worker of a server: the engine's round every `interval`, and beside it the sender,
/// which sends due deliveries every few seconds or when woken, reading the clock for each.
pub async fn run_worker(state: AppState, interval: Duration) {
    let engine_state = state.clone();
    let engine = tokio::spawn(async move {
        let mut tick = tokio::time::interval(interval);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            if let Err(e) = run_round(&engine_state, hark_core::now_millis()).await {
                tracing::warn!(error = %e, "alert round");
            }
        }
    });
    // Aborting the worker ends the engine too.
    struct AbortOnDrop(tokio::task::JoinHandle<()>);
    impl Drop for AbortOnDrop {
        fn drop(&mut self) {
            self.0.abort();
        }
    }
    let _engine = AbortOnDrop(engine);
    let owner = format!("alerts-{}-{:x}", std::process::id(), rand::random::<u32>());
    loop {
        loop {
            let now = hark_core::now_millis();
            match state.store.lease_delivery(&owner, now, now + DELIVERY_LEASE, None).await {
                Ok(Some(d)) => {
                    if let Err(e) = send::attempt(&state, &owner, d, now).await {
                        tracing::warn!(error = %e, "alert delivery");
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    tracing::warn!(error = %e, "alert deliveries");
                    break;
                }
            }
        }
        tokio::select! {
            _ = state.alerts_wake.notified() => {}
            _ = tokio::time::sleep(Duration::from_secs(5)) => {}
        }
    }
}

/// A tracker's influencer thresholds as the store's rules, one per platform with any set.
fn influencer_rules(t: &hark_core::notify::InfluencerThresholds) -> Vec<hark_store::InfluencerRule> {
    let rule = |platform, followers, shares, likes, views, verified| hark_store::InfluencerRule { platform, followers, shares, likes, views, verified };
    [
        rule("twitter", t.twitter_followers, t.twitter_retweets, 0, 0, t.twitter_verified),
        rule("tiktok", t.tiktok_followers, 0, 0, 0, t.tiktok_verified),
        rule("instagram", t.instagram_followers, 0, t.instagram_likes, 0, false),
        rule("youtube", t.youtube_followers, 0, 0, t.youtube_views, false),
        rule("facebook", t.facebook_fans, 0, t.facebook_likes, 0, false),
    ]
    .into_iter()
    .filter(|r| r.followers > 0 || r.shares > 0 || r.likes > 0 || r.views > 0 || r.verified)
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_to_an_hour() {
        assert_eq!(backoff(1), 30_000);
        assert_eq!(backoff(2), 60_000);
        assert_eq!(backoff(3), 120_000);
        assert_eq!(backoff(8), HOUR);
        assert_eq!(backoff(40), HOUR);
    }
}
