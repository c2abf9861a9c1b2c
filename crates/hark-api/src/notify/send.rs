//! Sending deliveries: the messages of alerts, digests, reports and tests, rendered when they are
//! sent, by e-mail (plain text, the report's PDF attached, one-click unsubscribe), by webhook (JSON
//! signed with HMAC-SHA256) or to Slack (Block Kit).

use base64::Engine as _;
use hark_core::notify::{thousands, NotificationSettings};
use hark_core::Millis;
use hark_store::{DeliveryRow, NewDelivery, NotificationRow, TrackerRow};
use serde_json::{json, Value};

use super::{backoff, report_period, MAX_ATTEMPTS, UNSUBSCRIBE_PATH};
use crate::error::{ApiError, ApiResult};
use crate::exports::{ExportParams, ExportSource};
use crate::AppState;

/// Why a send failed, and whether trying again may help.
#[derive(Debug, Clone)]
pub struct Failure {
    pub message: String,
    pub permanent: bool,
}

impl Failure {
    fn permanent(message: impl Into<String>) -> Self {
        Failure { message: message.into(), permanent: true }
    }
    fn transient(message: impl Into<String>) -> Self {
        Failure { message: message.into(), permanent: false }
    }
}

impl From<ApiError> for Failure {
    fn from(e: ApiError) -> Self {
        tracing::warn!(error = %e, "rendering a notification");
        Failure::transient("The message could not be made; it is tried again.")
    }
}

/// The deliveries of one message: an e-mail to each recipient (when the server sends mail), the
/// webhook and Slack when set.
pub fn fan_out(
    state: &AppState,
    s: &NotificationSettings,
    recipients: &[String],
    kind: &'static str,
    subject: &str,
    reason: &str,
    payload: &str,
) -> Vec<NewDelivery> {
    let mut out = vec![];
    let d = |channel: &'static str, recipient: String| NewDelivery {
        kind,
        channel,
        recipient,
        subject: subject.to_string(),
        reason: reason.to_string(),
        payload: payload.to_string(),
    };
    if state.mailer.is_some() {
        out.extend(recipients.iter().map(|r| d("email", r.clone())));
    }
    if let Some(url) = &s.webhook.url {
        out.push(d("webhook", host_of(url)));
    }
    if let Some(url) = &s.slack.url {
        out.push(d("slack", host_of(url)));
    }
    out
}

/// The host a URL names (what the history shows of a webhook).
pub fn host_of(url: &str) -> String {
    url::Url::parse(url).ok().and_then(|u| u.host_str().map(str::to_string)).unwrap_or_else(|| url.chars().take(60).collect())
}

/// Sends one leased delivery and records the outcome: sent, retried after back-off, or failed
/// for good (a permanent refusal, or too many tries).
pub async fn attempt(state: &AppState, owner: &str, d: DeliveryRow, now: Millis) -> ApiResult<()> {
    let renew = || {
        let (store, owner, id) = (state.store.clone(), owner.to_string(), d.id);
        async move { store.renew_delivery(id, &owner, hark_core::now_millis() + super::DELIVERY_LEASE).await }
    };
    let beat = std::time::Duration::from_millis(super::DELIVERY_LEASE as u64 / 3);
    let sent = match hark_store::hold_lease(deliver(state, &d), beat, renew).await {
        hark_store::Held::Done(sent) => sent,
        hark_store::Held::Lost => {
            tracing::info!(delivery = d.id, "delivery taken over by another sender");
            return Ok(());
        }
    };
    match sent {
        Ok(()) => {
            state.store.delivery_sent(d.id, owner, now).await?;
            tracing::info!(delivery = d.id, kind = %d.kind, channel = %d.channel, "notification sent");
        }
        Err(f) => {
            let retry_at = (!f.permanent && d.attempts < MAX_ATTEMPTS).then(|| now + backoff(d.attempts));
            tracing::warn!(delivery = d.id, attempts = d.attempts, error = %f.message, retry = retry_at.is_some(), "notification not sent");
            state.store.delivery_failed(d.id, owner, &f.message, retry_at).await?;
        }
    }
    Ok(())
}

/// What a delivery says, made from its payload.
struct Content {
    subject: String,
    /// Plain-text lines for mail and Slack.
    text: String,
    /// The JSON a webhook receives besides the envelope.
    data: Value,
    pdf: Option<(String, Vec<u8>)>,
}

/// Sends a delivery without recording the outcome ([`attempt`] records it).
pub async fn deliver(state: &AppState, d: &DeliveryRow) -> Result<(), Failure> {
    let tracker = state.store.tracker_by_id(d.tracker_id).await.map_err(ApiError::from)?.ok_or_else(|| Failure::permanent("The tracker was deleted."))?;
    let row = state.store.notification_settings(d.tracker_id).await.map_err(ApiError::from)?;
    let settings: NotificationSettings = row
        .as_ref()
        .and_then(|r| serde_json::from_str(&r.settings).ok())
        .ok_or_else(|| Failure::permanent("The tracker's notification settings are gone."))?;
    let base = base_url(state, row.as_ref());
    let payload: Value = serde_json::from_str(&d.payload).unwrap_or(Value::Null);
    let dashboard = format!("{base}/hashtag-tracking/dashboard/{}/{}", tracker.hash, tracker.friendly);
    let content = content(state, &tracker, d, &payload, d.channel == "email").await?;
    match d.channel.as_str() {
        "email" => {
            let mailer = state.mailer.as_ref().ok_or_else(|| Failure::permanent("E-mail is not set up on this server."))?;
            let list = if d.kind == "report" { &settings.report.recipients } else { &settings.alerts.recipients };
            if d.kind != "test" && !list.iter().any(|r| r.eq_ignore_ascii_case(&d.recipient)) {
                return Err(Failure::permanent("The address was removed from the recipients (or unsubscribed) before it was sent."));
            }
            let token = unsubscribe_token(state, tracker.id, &d.recipient);
            let api_link = format!("{base}{UNSUBSCRIBE_PATH}?token={token}");
            let page_link = format!("{base}/unsubscribe?token={token}");
            let what = if d.kind == "report" { "reports" } else { "alerts" };
            let body = format!(
                "{}\n\nOpen the dashboard: {dashboard}\n\n--\nYou receive this because {} is a recipient of the {what} of \"{}\" on Hark.\nUnsubscribe with one click: {page_link}\n",
                content.text, d.recipient, tracker.title
            );
            let host = url::Url::parse(&base).ok().and_then(|u| u.host_str().map(str::to_string)).unwrap_or_else(|| "hark.local".into());
            mailer
                .send_outgoing(crate::mail::Outgoing {
                    to: &d.recipient,
                    subject: &content.subject,
                    body,
                    attachment: content.pdf.map(|(name, bytes)| (name, crate::exports::pdf::CONTENT_TYPE, bytes)),
                    unsubscribe_url: Some(api_link),
                    message_id: Some(format!("<delivery-{}.{}@{host}>", d.id, d.tracker_id)),
                })
                .await
                .map_err(|e| Failure { message: e.message, permanent: e.permanent })
        }
        "webhook" => {
            let url = settings.webhook.url.as_deref().ok_or_else(|| Failure::permanent("The webhook address was removed."))?;
            let secret = row.as_ref().and_then(|r| r.webhook_secret.clone()).unwrap_or_default();
            let body = json!({
                "id": d.id,
                "kind": d.kind,
                "subject": content.subject,
                "createdAt": d.created_at,
                "tracker": {"hash": tracker.hash, "title": tracker.title, "url": dashboard},
                "data": content.data,
            });
            let body = serde_json::to_vec(&body).map_err(|e| Failure::permanent(e.to_string()))?;
            let signature = sign(&secret, &body);
            post(state, url, body, &[("X-Hark-Delivery", d.id.to_string()), ("X-Hark-Event", d.kind.clone()), ("X-Hark-Signature", signature)]).await
        }
        "slack" => {
            let url = settings.slack.url.as_deref().ok_or_else(|| Failure::permanent("The Slack address was removed."))?;
            let body = slack_message(&content.subject, &content.text, &dashboard);
            post(state, url, serde_json::to_vec(&body).unwrap_or_default(), &[]).await
        }
        other => Err(Failure::permanent(format!("unknown channel {other}"))),
    }
}

/// Where links in messages point: the configured public address, else where the web app was
/// last seen from.
fn base_url(state: &AppState, row: Option<&NotificationRow>) -> String {
    state
        .config
        .public_url
        .clone()
        .or_else(|| row.and_then(|r| r.public_base.clone()))
        .unwrap_or_else(|| "http://127.0.0.1:8080".into())
        .trim_end_matches('/')
        .to_string()
}

async fn content(state: &AppState, tracker: &TrackerRow, d: &DeliveryRow, payload: &Value, with_pdf: bool) -> Result<Content, Failure> {
    if let Some(r) = payload.get("report") {
        let start = r["start"].as_i64().unwrap_or(0);
        let end = r["end"].as_i64().unwrap_or(0);
        let frequency = serde_json::from_value(r["frequency"].clone()).unwrap_or_default();
        return Ok(report(state, tracker, start, end, frequency, with_pdf).await?);
    }
    if payload.get("test").is_some() {
        return Ok(Content {
            subject: d.subject.clone(),
            text: format!(
                "This is a test message from Hark for the tracker \"{}\".\nAlerts and reports for this tracker will arrive here like this one.",
                tracker.title
            ),
            data: json!({"test": true}),
            pdf: None,
        });
    }
    let mut ids: Vec<i64> = vec![];
    for key in ["digest", "events"] {
        if let Some(list) = payload.get(key).and_then(Value::as_array) {
            ids.extend(list.iter().filter_map(Value::as_i64));
        }
    }
    let events = state.store.events_by_ids(tracker.id, &ids).await.map_err(ApiError::from)?;
    let text = if events.is_empty() {
        d.reason.clone()
    } else {
        events.iter().map(|e| format!("{}\n{}", e.subject, e.reason)).collect::<Vec<_>>().join("\n\n")
    };
    let data = json!({
        "events": events.iter().map(|e| json!({
            "id": e.id,
            "kind": e.kind,
            "subject": e.subject,
            "reason": e.reason,
            "figures": serde_json::from_str::<Value>(&e.figures).unwrap_or(Value::Null),
            "createdAt": e.created_at,
        })).collect::<Vec<_>>()
    });
    Ok(Content { subject: d.subject.clone(), text, data, pdf: None })
}

/// The report of `[start, end)`: the summary (posts and their change on the period before, top
/// posts, top influencers, sentiment) and, for mail, the dashboard's PDF report of the period.
async fn report(
    state: &AppState,
    tracker: &TrackerRow,
    start: Millis,
    end: Millis,
    frequency: hark_core::notify::ReportFrequency,
    with_pdf: bool,
) -> ApiResult<Content> {
    let params = ExportParams {
        source: ExportSource::Dashboard,
        query: format!("start={start}&end={}", end - 1),
        now: end,
        grouping: None,
        eri: None,
        cumulative: false,
        paper: None,
    };
    let view = params.view(tracker, None)?;
    let panels = crate::exports::xlsx::panels(state, tracker, &params, &view).await?;
    let (prev_start, _) = report_period(frequency, start);
    let previous = state.store.dash_counts(tracker.id, &super::period_filter(tracker, prev_start, start)).await?.posts;
    let posts = panels.stats.posts;
    let period = super::schedule::range_words(start, end);
    let word = frequency.word();
    let unit = match frequency {
        hark_core::notify::ReportFrequency::Daily => "day",
        hark_core::notify::ReportFrequency::Weekly => "week",
        hark_core::notify::ReportFrequency::Monthly => "month",
    };
    let change = if previous > 0 {
        let pct = (posts - previous) as f64 * 100.0 / previous as f64;
        format!("{:+.0}% on the previous {unit} ({})", pct, thousands(previous.max(0) as u64))
    } else {
        format!("none in the previous {unit}")
    };
    let mut t = format!("{} – {word} report, {period} (UTC)\n\n", tracker.title);
    let n = |v: i64| thousands(v.max(0) as u64);
    t.push_str(&format!("Posts: {} ({change})\n", n(posts)));
    t.push_str(&format!(
        "Users: {} · Engagement: {} · Reach: {}\n",
        n(panels.stats.users),
        n(panels.stats.engagement),
        n(panels.stats.reach)
    ));
    let sent = &panels.sentiments;
    let total = (sent.positive + sent.neutral + sent.negative).max(1) as f64;
    let share = |v: i64| (v as f64 * 100.0 / total).round();
    t.push_str(&format!(
        "Sentiment: {}% positive, {}% neutral, {}% negative\n",
        share(sent.positive),
        share(sent.neutral),
        share(sent.negative)
    ));
    if posts == 0 {
        t.push_str("\nNo new posts in this period.\n");
    }
    if !panels.top_posts.is_empty() {
        t.push_str("\nTop posts\n");
        for (i, p) in panels.top_posts.iter().take(5).enumerate() {
            let text: String = p.text.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(140).collect();
            t.push_str(&format!("{}. @{} on {} ({} engagement): {}\n", i + 1, p.author_username, p.platform, n(p.engagement), text));
            if let Some(url) = &p.url {
                t.push_str(&format!("   {url}\n"));
            }
        }
    }
    if !panels.influencers.by_engagement.is_empty() {
        t.push_str("\nTop influencers\n");
        for (i, a) in panels.influencers.by_engagement.iter().take(5).enumerate() {
            t.push_str(&format!(
                "{}. @{} on {}: {} posts, {} engagement, {} followers\n",
                i + 1,
                a.username,
                a.platform,
                n(a.posts),
                n(a.engagement),
                n(a.followers)
            ));
        }
    }
    if with_pdf {
        t.push_str("\nThe full report is attached as a PDF.\n");
    }
    let data = json!({
        "report": {
            "frequency": frequency,
            "start": start,
            "end": end,
            "posts": posts,
            "previousPosts": previous,
            "users": panels.stats.users,
            "engagement": panels.stats.engagement,
            "reach": panels.stats.reach,
            "sentiment": {"positive": sent.positive, "neutral": sent.neutral, "negative": sent.negative},
            "topPosts": panels.top_posts.iter().take(5).map(|p| json!({
                "platform": p.platform, "author": p.author_username, "text": p.text.chars().take(280).collect::<String>(),
                "url": p.url, "engagement": p.engagement})).collect::<Vec<_>>(),
            "topInfluencers": panels.influencers.by_engagement.iter().take(5).map(|a| json!({
                "platform": a.platform, "username": a.username, "posts": a.posts, "engagement": a.engagement,
                "followers": a.followers})).collect::<Vec<_>>(),
        }
    });
    let pdf = if with_pdf {
        let mut progress = crate::exports::Progress::detached(state);
        let bytes = crate::exports::pdf::report(state, tracker, &params, &view, &mut progress).await?;
        Some((crate::exports::download_name(tracker, &view.filter, hark_core::ExportKind::Pdf), bytes))
    } else {
        None
    };
    let subject = format!("{} {word} report: {period}", tracker.title);
    Ok(Content { subject, text: t, data, pdf })
}

/// A Slack incoming-webhook message: the subject as header, the text, a button to the dashboard.
pub fn slack_message(subject: &str, text: &str, dashboard: &str) -> Value {
    // Slack's limits: header text 150 characters, a section's text 3000.
    let header: String = subject.chars().take(150).collect();
    let body: String = text.chars().take(2900).collect();
    json!({
        "text": subject,
        "blocks": [
            {"type": "header", "text": {"type": "plain_text", "text": header, "emoji": false}},
            {"type": "section", "text": {"type": "mrkdwn", "text": slack_escape(&body)}},
            {"type": "actions", "elements": [
                {"type": "button", "text": {"type": "plain_text", "text": "Open the dashboard"}, "url": dashboard}
            ]}
        ]
    })
}

/// Slack's mrkdwn treats &, < and > as markup.
fn slack_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// `sha256=` and the hex HMAC-SHA256 of the body under the tracker's webhook secret.
pub fn sign(secret: &str, body: &[u8]) -> String {
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, secret.as_bytes());
    format!("sha256={}", hex::encode(ring::hmac::sign(&key, body).as_ref()))
}

/// A new webhook secret.
pub fn new_secret() -> String {
    format!("whsec_{}", hex::encode(rand::random::<[u8; 24]>()))
}

async fn post(state: &AppState, url: &str, body: Vec<u8>, headers: &[(&str, String)]) -> Result<(), Failure> {
    let mut builder = reqwest::Client::builder().timeout(std::time::Duration::from_secs(15)).user_agent("Hark-Notifications/1");
    if !state.config.webhooks_allow_private {
        if let Some(why) = hark_collect::netguard::private_url_reason(url).await {
            return Err(Failure::permanent(why));
        }
        builder = hark_collect::netguard::public_only(builder);
    }
    let client = builder.build().map_err(|e| Failure::transient(e.to_string()))?;
    let mut req = client.post(url).header("Content-Type", "application/json").body(body);
    for (k, v) in headers {
        req = req.header(*k, v);
    }
    let res = req.send().await.map_err(|e| Failure::transient(format!("could not reach {}: {}", host_of(url), without_url(&e))))?;
    let status = res.status();
    if status.is_success() {
        return Ok(());
    }
    let text: String = res.text().await.unwrap_or_default().chars().take(200).collect();
    let message = format!("{} answered {}{}", host_of(url), status.as_u16(), if text.is_empty() { String::new() } else { format!(": {text}") });
    // Timeouts, rate limits and server errors pass; other refusals will not.
    if status.is_server_error() || status.as_u16() == 408 || status.as_u16() == 429 {
        Err(Failure::transient(message))
    } else {
        Err(Failure::permanent(message))
    }
}

/// A reqwest error without the URL (a Slack or webhook URL is a secret).
fn without_url(e: &reqwest::Error) -> String {
    let kind = if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "connection refused or failed"
    } else {
        "request failed"
    };
    kind.to_string()
}

/// The token of an unsubscribe link: the tracker, the address and a tag only this server makes.
pub fn unsubscribe_token(state: &AppState, tracker_id: i64, email: &str) -> String {
    let email = email.to_ascii_lowercase();
    let tag = state.secret_key.tag("unsubscribe", format!("{tracker_id}\n{email}").as_bytes());
    format!("{tracker_id}.{}.{tag}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(email.as_bytes()))
}

/// The tracker and address of a token this server made.
pub fn read_unsubscribe_token(state: &AppState, token: &str) -> Option<(i64, String)> {
    let mut parts = token.trim().splitn(3, '.');
    let id: i64 = parts.next()?.parse().ok()?;
    let email = String::from_utf8(base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(parts.next()?).ok()?).ok()?;
    let tag = parts.next()?;
    state.secret_key.tag_matches("unsubscribe", format!("{id}\n{email}").as_bytes(), tag).then_some((id, email))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_is_hmac_sha256_hex() {
        // RFC 4231 test case 2.
        assert_eq!(
            sign("Jefe", b"what do ya want for nothing?"),
            "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn slack_message_is_block_kit() {
        let m = slack_message("Spike on <b>", "a & b", "https://h/x");
        assert_eq!(m["blocks"][0]["type"], "header");
        assert_eq!(m["blocks"][1]["text"]["text"], "a &amp; b");
        assert_eq!(m["blocks"][2]["elements"][0]["url"], "https://h/x");
        assert_eq!(m["text"], "Spike on <b>");
    }

    #[test]
    fn hosts() {
        assert_eq!(host_of("https://hooks.slack.com/services/T/B/x"), "hooks.slack.com");
        assert_eq!(host_of("http://127.0.0.1:9000/hook"), "127.0.0.1");
    }
}
