//! Alerts and reports end to end on a simulated clock: the settings page's API, the engine's
//! decisions (a spike sends exactly one alert, a quiet week none; the weekly report or not), the
//! outbox (a failing SMTP server retried until it recovers, a sender killed mid-send losing and
//! duplicating nothing), mail read back from a real SMTP server with its PDF opened, webhooks
//! checked against their signature, Slack's Block Kit, and the unsubscribe link.

use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::http::HeaderMap;
use hark_api::notify;
use hark_api::{ApiConfig, AppState};
use hark_testkit::{backends, SmtpServer, TestApp};
use serde_json::{json, Value};

const HOUR: i64 = 3_600_000;
const DAY: i64 = 24 * HOUR;

/// A receiver of webhooks on 127.0.0.1: every request's path, headers and body.
#[derive(Clone, Default)]
struct Receiver {
    got: Arc<Mutex<Vec<(String, HeaderMap, Bytes)>>>,
    /// Answer 503 while set.
    down: Arc<std::sync::atomic::AtomicBool>,
}

impl Receiver {
    async fn start() -> (Self, String) {
        let r = Receiver::default();
        let state = r.clone();
        let app = axum::Router::new().fallback(move |uri: axum::http::Uri, headers: HeaderMap, body: Bytes| {
            let state = state.clone();
            async move {
                if state.down.load(std::sync::atomic::Ordering::SeqCst) {
                    return axum::http::StatusCode::SERVICE_UNAVAILABLE;
                }
                state.got.lock().unwrap().push((uri.path().to_string(), headers, body));
                axum::http::StatusCode::OK
            }
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await });
        (r, base)
    }

    fn at(&self, path: &str) -> Vec<(HeaderMap, Value)> {
        self.got
            .lock()
            .unwrap()
            .iter()
            .filter(|(p, _, _)| p == path)
            .map(|(_, h, b)| (h.clone(), serde_json::from_slice(b).unwrap_or(Value::Null)))
            .collect()
    }

    /// Distinct deliveries by their id header: what a receiver that deduplicates keeps.
    fn distinct(&self, path: &str) -> usize {
        let ids: std::collections::BTreeSet<String> = self
            .at(path)
            .iter()
            .map(|(h, _)| h.get("x-hark-delivery").and_then(|v| v.to_str().ok()).unwrap_or("").to_string())
            .collect();
        ids.len()
    }
}

struct Fixture {
    /// Unique among the backends' runs (they share one SMTP server and receiver).
    tag: String,
    app: TestApp,
    /// The engine's own state over the app's database (the server runs no alerts worker).
    state: AppState,
    hash: String,
    tracker_id: i64,
}

async fn fixture(backend: hark_store::Backend, smtp: &SmtpServer) -> Fixture {
    let config = ApiConfig {
        mail: Some(hark_api::mail::MailConfig { smtp_url: smtp.url.clone(), from: "Hark <hark@example.org>".into() }),
        public_url: Some("https://hark.example.org".into()),
        webhooks_allow_private: true,
        // The server and the engine's own state share the key, as every node of a cluster does:
        // the settings are stored sealed with it.
        secret_key: Some(hark_api::secrets::SecretKey::random()),
        ..Default::default()
    };
    let app = TestApp::spawn_with(backend, config.clone()).await;
    app.setup_admin().await;
    let t = app.create_tracker("coffee").await;
    let hash = t["hash"].as_str().unwrap().to_string();
    let tracker_id = app.store.tracker_by_hash(&hash).await.unwrap().unwrap().id;
    let state = AppState::new(app.store.clone(), config);
    let tag = format!("{}-{}", tracker_id, app.base.rsplit(':').next().unwrap_or("0"));
    Fixture { tag, app, state, hash, tracker_id }
}

/// A deterministic stream of posts: `per_hour(h)` posts in hour `h` from `first`.
async fn import_hours(app: &TestApp, hash: &str, first: i64, hours: i64, per_hour: impl Fn(i64) -> i64, tag: &str) -> i64 {
    let mut lines = vec![];
    let mut n = 0;
    for h in 0..hours {
        for k in 0..per_hour(h) {
            n += 1;
            lines.push(json!({
                "platform": "twitter", "id": format!("{tag}{h}x{k}"), "text": format!("coffee talk {tag} {h} {k}"),
                "createdAt": first + h * HOUR + (k * 97_000) % HOUR,
                "author": {"username": format!("u{}", (h + k) % 50), "name": "U", "followers": 100},
            }));
        }
    }
    for chunk in lines.chunks(2000) {
        let r = app.import_posts(hash, chunk).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
    }
    n
}

/// About `mean` posts an hour, higher by day than by night, with a little noise (a fixed LCG).
fn rhythm(first: i64, mean: f64) -> impl Fn(i64) -> i64 {
    move |h| {
        let hour_of_day = ((first / HOUR + h) % 24) as f64;
        let day = 1.0 + 0.6 * ((hour_of_day - 9.0) / 24.0 * std::f64::consts::TAU).sin();
        let noise = ((h.wrapping_mul(1_103_515_245).wrapping_add(12_345) >> 8) % 5) as f64 - 2.0;
        (mean * day + noise * 0.5).round().max(0.0) as i64
    }
}

/// Moves the tracker's engine to the simulated clock: as if its settings were made at `at`.
async fn set_clock(f: &Fixture, at: i64) {
    let row = f.state.store.notification_settings(f.tracker_id).await.unwrap().unwrap();
    let settings: hark_core::notify::NotificationSettings = serde_json::from_str(&row.settings).unwrap();
    let step = hark_store::EngineStep {
        tracker_id: f.tracker_id,
        version: row.engine_version,
        memory: notify::fresh_memory(&settings, at),
        now: at,
        ..Default::default()
    };
    assert!(f.app.store.save_engine_step(&step).await.unwrap().is_some());
}

async fn put_settings(app: &TestApp, hash: &str, settings: &Value) -> hark_testkit::Response {
    app.send_json("PUT", &format!("/api/v1/trackers/{hash}/notifications"), settings.clone()).await
}

fn mails_with(smtp: &SmtpServer, subject_part: &str) -> Vec<hark_testkit::Mail> {
    smtp.messages().into_iter().filter(|m| unfold(&m.data).contains(subject_part)).collect()
}

/// The message's text with quoted-printable soft breaks and header folding undone.
fn unfold(data: &str) -> String {
    data.replace("=\r\n", "").replace("=3D", "=").replace("\r\n ", " ").replace("\r\n\t", " ")
}

#[tokio::test]
async fn settings_keep_what_the_owner_saves_and_refuse_bad_input() {
    let smtp = SmtpServer::start();
    for backend in backends() {
        let f = fixture(backend, &smtp).await;
        let path = format!("/api/v1/trackers/{}/notifications", f.hash);
        let r = f.app.get(&path).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        // The spec's defaults, mailed to the owner.
        let s = &r.body["settings"];
        assert_eq!(s["alerts"]["frequency"], "realtime");
        assert_eq!(s["alerts"]["spike"], true);
        assert_eq!(s["report"]["enabled"], true);
        assert_eq!(s["report"]["frequency"], "weekly");
        assert_eq!(s["report"]["sendWithoutUpdates"], false);
        assert_eq!(s["alerts"]["recipients"], json!(["admin@example.org"]));
        assert_eq!(r.body["mailConfigured"], true);
        assert!(r.body["nextReportAt"].as_i64().unwrap() > hark_core::now_millis());
        assert_eq!(r.body["webhookSecret"], Value::Null);

        let mut changed = s.clone();
        changed["alerts"]["frequency"] = json!("hourly");
        changed["alerts"]["recipients"] = json!(["a@example.org", " b@example.org "]);
        changed["alerts"]["negativeSentiment"] = json!(true);
        changed["alerts"]["spikeSensitivity"] = json!("high");
        changed["alerts"]["spikeMinPosts"] = json!(25);
        changed["alerts"]["influencers"]["twitterFollowers"] = json!(10000);
        changed["alerts"]["influencers"]["tiktokVerified"] = json!(true);
        changed["report"]["frequency"] = json!("monthly");
        changed["report"]["sendWithoutUpdates"] = json!(true);
        changed["webhook"]["url"] = json!("https://hooks.example.org/hark");
        changed["slack"]["url"] = json!("https://hooks.slack.com/services/T0/B0/x");
        let r = put_settings(&f.app, &f.hash, &changed).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        let secret = r.body["webhookSecret"].as_str().expect("a secret once a webhook is set").to_string();
        let got = f.app.get(&path).await.body;
        changed["alerts"]["recipients"] = json!(["a@example.org", "b@example.org"]);
        assert_eq!(got["settings"], changed);
        assert_eq!(got["webhookSecret"], secret.as_str());
        // Monthly: due on the first of next month.
        let due = got["nextReportAt"].as_i64().unwrap();
        assert_eq!(due, notify::next_report_due(hark_core::notify::ReportFrequency::Monthly, hark_core::now_millis()));

        // Bad input is refused with a clear error and changes nothing.
        let mut bad = changed.clone();
        bad["report"]["recipients"] = json!(["not an address"]);
        let r = put_settings(&f.app, &f.hash, &bad).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (422, Some("invalid_email")), "{:?}", r.body);
        assert!(r.body["error"]["message"].as_str().unwrap().contains("not an address"));
        let mut bad = changed.clone();
        bad["webhook"]["url"] = json!("ftp://example.org");
        let r = put_settings(&f.app, &f.hash, &bad).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (422, Some("validation_failed")), "{:?}", r.body);
        let mut bad = changed.clone();
        bad["alerts"]["frequency"] = json!("weekly");
        let r = put_settings(&f.app, &f.hash, &bad).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (400, Some("invalid_json")), "{:?}", r.body);
        assert!(r.body["error"]["message"].as_str().unwrap().contains("weekly"), "{:?}", r.body);
        let mut bad = changed.clone();
        bad["webhook"]["url"] = json!("https://hooks.example.org:99999/x");
        let r = put_settings(&f.app, &f.hash, &bad).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (422, Some("validation_failed")), "{:?}", r.body);
        let r = f.app.send_json("PUT", &path, json!("nonsense")).await;
        assert!(r.status == 400 || r.status == 422, "{:?}", r.body);
        assert_eq!(f.app.get(&path).await.body["settings"], changed);

        // The signing secret stays with the receiver's host and changes with it.
        let mut moved = changed.clone();
        moved["webhook"]["url"] = json!("https://hooks.example.org/other-path");
        assert_eq!(put_settings(&f.app, &f.hash, &moved).await.body["webhookSecret"], secret.as_str());
        moved["webhook"]["url"] = json!("https://elsewhere.example.org/hark");
        let other = put_settings(&f.app, &f.hash, &moved).await.body["webhookSecret"].as_str().unwrap().to_string();
        assert_ne!(other, secret);
        assert_eq!(put_settings(&f.app, &f.hash, &changed).await.status, 200);

        // A test to a destination not set says so.
        changed["slack"]["url"] = Value::Null;
        assert_eq!(put_settings(&f.app, &f.hash, &changed).await.status, 200);
        let r = f.app.post(&format!("{path}/test"), json!({"destination": "slack"})).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (422, Some("destination_not_set")));
        let r = f.app.post(&format!("{path}/test"), json!({"destination": "pigeon"})).await;
        assert_eq!(r.status, 422);
        // Send test is limited, so it cannot mail strangers in bulk.
        let row = f.app.store.tracker_by_hash(&f.hash).await.unwrap().unwrap();
        for _ in 0..30 {
            let d = hark_store::NewDelivery { kind: "test", channel: "email", recipient: "x@example.org".into(), subject: "t".into(), reason: String::new(), payload: "{}".into() };
            f.app.store.add_delivery(row.id, &d, hark_core::now_millis()).await.unwrap();
        }
        let r = f.app.post(&format!("{path}/test"), json!({"destination": "webhook"})).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (429, Some("rate_limited")), "{:?}", r.body);
        // The history pages.
        let r = f.app.get(&format!("{path}/history?page=0")).await;
        assert_eq!(r.status, 400, "{:?}", r.body);
    }
}

#[tokio::test]
async fn tests_reach_every_destination_and_unsubscribe_works_without_signing_in() {
    let smtp = SmtpServer::start();
    let (rx, rx_base) = Receiver::start().await;
    for backend in backends() {
        let f = fixture(backend, &smtp).await;
        let path = format!("/api/v1/trackers/{}/notifications", f.hash);
        let mut s = f.app.get(&path).await.body["settings"].clone();
        let to = format!("ops-{}@example.org", f.tag);
        s["alerts"]["recipients"] = json!([to]);
        s["report"]["recipients"] = json!([to]);
        s["webhook"]["url"] = json!(format!("{rx_base}/hook"));
        s["slack"]["url"] = json!(format!("{rx_base}/slack"));
        let saved = put_settings(&f.app, &f.hash, &s).await;
        let secret = saved.body["webhookSecret"].as_str().unwrap().to_string();

        let before = smtp.messages().len();
        let r = f.app.post(&format!("{path}/test"), json!({"destination": "email"})).await;
        assert_eq!((r.status, r.body["delivery"]["status"].as_str()), (200, Some("sent")), "{:?}", r.body);
        let mail = smtp.wait_for(before + 1).await;
        let m = mail.last().unwrap();
        assert_eq!(m.to, vec![to.clone()]);
        let data = unfold(&m.data);
        assert!(data.contains("List-Unsubscribe: <https://hark.example.org/api/v1/unsubscribe?token="), "{data}");
        assert!(data.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"), "{data}");

        let hooks = rx.at("/hook").len();
        let r = f.app.post(&format!("{path}/test"), json!({"destination": "webhook"})).await;
        assert_eq!(r.body["delivery"]["status"], "sent", "{:?}", r.body);
        let got = rx.got.lock().unwrap().iter().filter(|(p, _, _)| p == "/hook").nth(hooks).cloned().expect("webhook call");
        let (_, headers, body) = got;
        let sig = headers.get("x-hark-signature").unwrap().to_str().unwrap();
        assert_eq!(sig, notify::send::sign(&secret, &body), "the signature is the HMAC of the body under the secret");
        let v: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["kind"], "test");
        assert_eq!(v["tracker"]["hash"], f.hash.as_str());

        let r = f.app.post(&format!("{path}/test"), json!({"destination": "slack"})).await;
        assert_eq!(r.body["delivery"]["status"], "sent", "{:?}", r.body);
        let slack = rx.at("/slack");
        let (_, msg) = slack.last().unwrap();
        assert_eq!(msg["blocks"][0]["type"], "header");
        assert!(msg["text"].as_str().unwrap().contains("Test message"));

        let h = f.app.get(&format!("{path}/history")).await.body;
        assert!(h["total"].as_i64().unwrap() >= 3);
        assert_eq!(h["items"][0]["channel"], "slack");
        assert_eq!(h["items"][0]["kind"], "test");

        // The link in the mail unsubscribes, signed out, in one click.
        let link = data.split("List-Unsubscribe: <").nth(1).unwrap().split('>').next().unwrap().to_string();
        let local = link.replace("https://hark.example.org", &f.app.base);
        let anon = reqwest::Client::new();
        let r = hark_testkit::send(anon.get(&local)).await;
        assert_eq!((r.status, r.body["subscribed"].as_bool()), (200, Some(true)), "{:?}", r.body);
        let r = hark_testkit::send(anon.post(&local).header("Content-Type", "application/x-www-form-urlencoded").body("List-Unsubscribe=One-Click")).await;
        assert_eq!((r.status, r.body["subscribed"].as_bool()), (200, Some(false)), "{:?}", r.body);
        let s = f.app.get(&path).await.body["settings"].clone();
        assert_eq!(s["alerts"]["recipients"], json!([]));
        assert_eq!(s["report"]["recipients"], json!([]));
        // A forged or altered token opens nothing.
        let forged = local.replace("token=", "token=9");
        assert_eq!(hark_testkit::send(anon.post(&forged)).await.status, 404);
    }
}

#[tokio::test]
async fn a_spike_sends_exactly_one_alert_and_a_quiet_week_none() {
    let smtp = SmtpServer::start();
    let (rx, rx_base) = Receiver::start().await;
    for backend in backends() {
        let f = fixture(backend, &smtp).await;
        // The simulated present: history from five weeks before, and the week judged.
        let t0 = (hark_core::now_millis() / DAY - 14) * DAY;
        let first = t0 - 35 * DAY;
        import_hours(&f.app, &f.hash, first, 43 * 24, rhythm(first, 6.0), "h").await;
        let path = format!("/api/v1/trackers/{}/notifications", f.hash);
        let mut s = f.app.get(&path).await.body["settings"].clone();
        let to = format!("spike-{}@example.org", f.tag);
        s["alerts"]["recipients"] = json!([to]);
        s["report"]["enabled"] = json!(false);
        s["webhook"]["url"] = json!(format!("{rx_base}/spike-{}", f.tag));
        assert_eq!(put_settings(&f.app, &f.hash, &s).await.status, 200);
        // The engine starts judging at t0.
        set_clock(&f, t0).await;

        // A week of ordinary traffic, a round every hour: no alert.
        let mut events = 0;
        for h in 0..168 {
            events += notify::run_round(&f.state, t0 + h * HOUR + 60_000).await.unwrap().events;
        }
        assert_eq!(events, 0, "a quiet week sends no spike alert");

        // A burst: 150 posts within an hour, in the week after.
        let burst = t0 + 7 * DAY + 10 * HOUR;
        let extra = import_hours(&f.app, &f.hash, burst, 1, |_| 150, "b").await;
        assert_eq!(extra, 150);
        for h in 0..24 {
            events += notify::run_round(&f.state, t0 + (168 + h) * HOUR + 60_000).await.unwrap().events;
        }
        assert_eq!(events, 1, "one burst, one alert");
        // Running the same moment again (a second node, a restart) decides nothing more.
        assert_eq!(notify::run_round(&f.state, t0 + 191 * HOUR + 60_000).await.unwrap().events, 0);

        let before = mails_with(&smtp, &to).len();
        let sent = notify::deliver_due(&f.state, "sender", t0 + 192 * HOUR).await.unwrap();
        assert_eq!(sent, 2, "one e-mail, one webhook");
        let mails = mails_with(&smtp, &to);
        assert_eq!(mails.len() - before, 1);
        let body = unfold(&mails.last().unwrap().data);
        assert!(body.contains("Activity spike on"), "{body}");
        assert!(body.contains("posts in the 2 hours to"), "{body}");
        let hooks = rx.at(&format!("/spike-{}", f.tag));
        assert_eq!(hooks.len(), 1);
        let ev = &hooks[0].1["data"]["events"][0];
        assert_eq!(ev["kind"], "spike");
        assert!(ev["figures"]["observed"].as_u64().unwrap() >= 150, "{ev}");
        assert!(ev["figures"]["z"].as_f64().unwrap() > 5.0);

        // The history says what was sent and why.
        let h = f.app.get(&format!("{path}/history")).await.body;
        let spike: Vec<&Value> = h["items"].as_array().unwrap().iter().filter(|i| i["kind"] == "spike").collect();
        assert_eq!(spike.len(), 2);
        assert!(spike.iter().all(|i| i["status"] == "sent" && i["reason"].as_str().unwrap().contains("against")));
    }
}

#[tokio::test]
async fn a_quiet_week_sends_the_weekly_report_or_not_per_the_setting() {
    let smtp = SmtpServer::start();
    for backend in backends() {
        let f = fixture(backend, &smtp).await;
        let monday = notify::next_report_due(hark_core::notify::ReportFrequency::Weekly, hark_core::now_millis()) - 21 * DAY;
        // Posts in the week before `monday` only; the week after is quiet.
        import_hours(&f.app, &f.hash, monday - 7 * DAY, 7 * 24, |h| if h % 3 == 0 { 2 } else { 0 }, "w").await;
        let path = format!("/api/v1/trackers/{}/notifications", f.hash);
        let mut s = f.app.get(&path).await.body["settings"].clone();
        let to = format!("weekly-{}@example.org", f.tag);
        s["report"]["recipients"] = json!([to]);
        s["alerts"]["spike"] = json!(false);
        assert_eq!(put_settings(&f.app, &f.hash, &s).await.status, 200);
        // The week with posts: its report goes out when it ends, PDF attached.
        set_clock(&f, monday - DAY).await;
        notify::run_round(&f.state, monday - DAY).await.unwrap();
        assert_eq!(notify::run_round(&f.state, monday + 60_000).await.unwrap().deliveries, 1);
        // Decided once: the same moment again (a restart, a second node) adds no report.
        assert_eq!(notify::run_round(&f.state, monday + 60_000).await.unwrap().deliveries, 0);
        notify::deliver_due(&f.state, "sender", monday + 120_000).await.unwrap();
        let mails = mails_with(&smtp, &to);
        assert_eq!(mails.len(), 1);
        let body = unfold(&mails[0].data);
        assert!(body.contains("weekly report"), "{body}");
        assert!(body.contains("Posts: 112 (none in the previous week)"), "{body}");
        assert!(body.contains("Top posts"), "{body}");
        assert!(body.contains("List-Unsubscribe"), "{body}");
        let pdf = attachment(&mails[0].data).expect("a PDF attached");
        assert!(pdf.starts_with(b"%PDF-"), "the attachment is a PDF");
        let text = pdf_text(&pdf).expect("pdftotext (poppler-utils) reads the attachment");
        assert!(text.contains("112"), "the report's post count: {text}");

        // The quiet week after: no report without updates...
        assert_eq!(notify::run_round(&f.state, monday + 7 * DAY + 60_000).await.unwrap().deliveries, 0);
        // ...and one when the owner wants it anyway.
        s["report"]["sendWithoutUpdates"] = json!(true);
        assert_eq!(put_settings(&f.app, &f.hash, &s).await.status, 200);
        set_clock(&f, monday + 7 * DAY + 60_000).await;
        assert_eq!(notify::run_round(&f.state, monday + 14 * DAY + 60_000).await.unwrap().deliveries, 1);
        notify::deliver_due(&f.state, "sender", monday + 14 * DAY + 120_000).await.unwrap();
        let mails = mails_with(&smtp, &to);
        assert_eq!(mails.len(), 2);
        assert!(unfold(&mails[1].data).contains("No new posts in this period."));
    }
}

#[tokio::test]
async fn a_failing_smtp_server_is_retried_until_it_recovers_and_a_kill_mid_send_loses_nothing() {
    let smtp = SmtpServer::start();
    let (rx, rx_base) = Receiver::start().await;
    for backend in backends() {
        let f = fixture(backend, &smtp).await;
        let path = format!("/api/v1/trackers/{}/notifications", f.hash);
        let mut s = f.app.get(&path).await.body["settings"].clone();
        let to = format!("retry-{}@example.org", f.tag);
        s["alerts"]["recipients"] = json!([to]);
        let hook = format!("/kill-{}", f.tag);
        s["webhook"]["url"] = json!(format!("{rx_base}{hook}"));
        assert_eq!(put_settings(&f.app, &f.hash, &s).await.status, 200);

        // The mail server is down: the test is kept and retried with back-off.
        smtp.set_failing(true);
        let r = f.app.post(&format!("{path}/test"), json!({"destination": "email"})).await;
        smtp.set_failing(false);
        let d = &r.body["delivery"];
        assert_eq!(d["status"], "retrying", "{:?}", r.body);
        assert!(d["error"].as_str().unwrap().contains("451"), "{d}");
        let id = d["id"].as_i64().unwrap();
        let next = d["nextAttemptAt"].as_i64().unwrap();
        smtp.set_failing(true);
        // Not before its time; then once more, failing again, later still.
        assert_eq!(notify::deliver_due(&f.state, "s1", next - 1_000).await.unwrap(), 0);
        assert_eq!(notify::deliver_due(&f.state, "s1", next).await.unwrap(), 1);
        let row = f.app.store.delivery(id).await.unwrap().unwrap();
        assert_eq!((row.status.as_str(), row.attempts), ("retrying", 2));
        assert!(row.next_attempt_at - next >= 60_000, "back-off grows");
        // It recovers: sent once.
        smtp.set_failing(false);
        let before = mails_with(&smtp, &to).len();
        assert_eq!(notify::deliver_due(&f.state, "s1", row.next_attempt_at).await.unwrap(), 1);
        assert_eq!(mails_with(&smtp, &to).len(), before + 1);
        assert_eq!(f.app.store.delivery(id).await.unwrap().unwrap().status, "sent");

        // A webhook down is retried the same way.
        rx.down.store(true, std::sync::atomic::Ordering::SeqCst);
        let r = f.app.post(&format!("{path}/test"), json!({"destination": "webhook"})).await;
        rx.down.store(false, std::sync::atomic::Ordering::SeqCst);
        assert_eq!(r.body["delivery"]["status"], "retrying");
        assert!(r.body["delivery"]["error"].as_str().unwrap().contains("503"));
        let id = r.body["delivery"]["id"].as_i64().unwrap();
        let at = r.body["delivery"]["nextAttemptAt"].as_i64().unwrap();
        notify::deliver_due(&f.state, "s1", at).await.unwrap();
        assert_eq!(f.app.store.delivery(id).await.unwrap().unwrap().status, "sent");
        assert_eq!(rx.distinct(&hook), 1);

        // A sender killed after sending, before recording it: the delivery's lease runs out and
        // another sender sends it again; the receiver, deduplicating by id, has it once.
        let now = hark_core::now_millis() + DAY;
        let d = f.app.store.add_delivery(f.tracker_id, &hark_store::NewDelivery {
            kind: "test", channel: "webhook", recipient: "127.0.0.1".into(), subject: "kill".into(), reason: String::new(),
            payload: r#"{"test":true}"#.into(),
        }, now).await.unwrap();
        let leased = f.app.store.lease_delivery("doomed", now, now + notify::DELIVERY_LEASE, Some(d.id)).await.unwrap().unwrap();
        notify::send::deliver(&f.state, &leased).await.expect("sent, then the sender dies");
        // Another sender, before the lease runs out: nothing to take.
        assert_eq!(notify::deliver_due(&f.state, "s2", now + 1_000).await.unwrap(), 0);
        // After: sent again, recorded once.
        assert_eq!(notify::deliver_due(&f.state, "s2", now + notify::DELIVERY_LEASE + 1).await.unwrap(), 1);
        let row = f.app.store.delivery(d.id).await.unwrap().unwrap();
        assert_eq!((row.status.as_str(), row.attempts), ("sent", 2));
        assert_eq!(rx.at(&hook).len(), 3, "delivered twice at least once");
        assert_eq!(rx.distinct(&hook), 2, "but two deliveries in all");
        // The dead sender's late record changes nothing.
        assert!(!f.app.store.delivery_sent(d.id, "doomed", now).await.unwrap());

        // A sender killed before sending: the lease runs out and the delivery goes once.
        let d = f.app.store.add_delivery(f.tracker_id, &hark_store::NewDelivery {
            kind: "test", channel: "email", recipient: to.clone(), subject: format!("second kill {}", f.tag), reason: String::new(),
            payload: r#"{"test":true}"#.into(),
        }, now).await.unwrap();
        f.app.store.lease_delivery("doomed", now, now + notify::DELIVERY_LEASE, Some(d.id)).await.unwrap().unwrap();
        let before = mails_with(&smtp, &format!("second kill {}", f.tag)).len();
        assert_eq!(notify::deliver_due(&f.state, "s3", now + notify::DELIVERY_LEASE + 1).await.unwrap(), 1);
        assert_eq!(mails_with(&smtp, &format!("second kill {}", f.tag)).len(), before + 1);
    }
}

#[tokio::test]
async fn influencer_and_digest_alerts() {
    let smtp = SmtpServer::start();
    for backend in backends() {
        let f = fixture(backend, &smtp).await;
        let path = format!("/api/v1/trackers/{}/notifications", f.hash);
        let mut s = f.app.get(&path).await.body["settings"].clone();
        let to = format!("vip-{}@example.org", f.tag);
        s["alerts"]["recipients"] = json!([to]);
        s["alerts"]["frequency"] = json!("hourly");
        s["alerts"]["influencers"]["twitterFollowers"] = json!(50000);
        assert_eq!(put_settings(&f.app, &f.hash, &s).await.status, 200);
        let now = hark_core::now_millis();
        let lines = vec![
            json!({"platform": "twitter", "id": "big1", "text": "coffee from a star", "createdAt": now - 60_000,
                   "author": {"username": "star", "name": "Star", "followers": 120000}}),
            json!({"platform": "twitter", "id": "small1", "text": "coffee from a fan", "createdAt": now - 60_000,
                   "author": {"username": "fan", "name": "Fan", "followers": 10}}),
        ];
        assert_eq!(f.app.import_posts(&f.hash, &lines).await.status, 200);
        // Seen after the posts settle; hourly: held for the digest.
        let later = hark_core::now_millis() + 60_000;
        let r = notify::run_round(&f.state, later).await.unwrap();
        assert_eq!((r.events, r.deliveries), (1, 0));
        let events = f.app.store.waiting_events(f.tracker_id).await.unwrap();
        assert_eq!(events.len(), 1);
        assert!(events[0].reason.contains("@star") && events[0].reason.contains("120,000 followers"), "{}", events[0].reason);
        assert!(!events[0].reason.contains("@fan"));
        // At the top of the hour the digest goes out, once.
        let due = later - later.rem_euclid(HOUR) + HOUR;
        assert_eq!(notify::run_round(&f.state, due + 1).await.unwrap().deliveries, 1);
        assert_eq!(notify::run_round(&f.state, due + 2).await.unwrap().deliveries, 0);
        notify::deliver_due(&f.state, "s", due + 3).await.unwrap();
        let mails = mails_with(&smtp, &to);
        assert_eq!(mails.len(), 1);
        assert!(unfold(&mails[0].data).contains("hourly digest"));
        assert!(f.app.store.waiting_events(f.tracker_id).await.unwrap().is_empty());

        assert!(f.app.store.waiting_events(f.tracker_id).await.unwrap().is_empty());
    }
}

#[tokio::test]
async fn a_turn_to_negative_sentiment_alerts_once() {
    let smtp = SmtpServer::start();
    for backend in backends() {
        let f = fixture(backend, &smtp).await;
        let path = format!("/api/v1/trackers/{}/notifications", f.hash);
        let mut s = f.app.get(&path).await.body["settings"].clone();
        s["alerts"]["recipients"] = json!([format!("neg-{}@example.org", f.tag)]);
        s["alerts"]["spike"] = json!(false);
        s["alerts"]["negativeSentiment"] = json!(true);
        s["report"]["enabled"] = json!(false);
        assert_eq!(put_settings(&f.app, &f.hash, &s).await.status, 200);
        let t = (hark_core::now_millis() / DAY - 3) * DAY;
        // A week of ordinary posts, then a window where most posts are angry.
        import_hours(&f.app, &f.hash, t - 8 * DAY, 8 * 24 - 2, |_| 6, "n").await;
        let angry: Vec<Value> = (0..40)
            .map(|k| json!({"platform": "twitter", "id": format!("angry{k}"), "createdAt": t - 90 * 60_000 + k * 1_000,
                "text": format!("this coffee is awful, I hate it, terrible and disgusting service {k}"),
                "author": {"username": format!("a{k}"), "name": "A", "followers": 10}}))
            .collect();
        assert_eq!(f.app.import_posts(&f.hash, &angry).await.status, 200);
        set_clock(&f, t - HOUR).await;
        let r = notify::run_round(&f.state, t + 60_000).await.unwrap();
        assert_eq!((r.events, r.deliveries), (1, 1), "{r:?}");
        let h = f.app.get(&format!("{path}/history")).await.body;
        assert_eq!(h["items"][0]["kind"], "negative_sentiment");
        assert!(h["items"][0]["reason"].as_str().unwrap().contains("were negative"), "{h}");
        // Still negative an hour later: the same turn, no second alert.
        assert_eq!(notify::run_round(&f.state, t + HOUR + 60_000).await.unwrap().events, 0);
    }
}

#[tokio::test]
async fn alerts_waiting_for_a_digest_go_out_when_the_owner_switches_to_realtime() {
    let smtp = SmtpServer::start();
    for backend in backends() {
        let f = fixture(backend, &smtp).await;
        let path = format!("/api/v1/trackers/{}/notifications", f.hash);
        let mut s = f.app.get(&path).await.body["settings"].clone();
        s["alerts"]["recipients"] = json!([format!("switch-{}@example.org", f.tag)]);
        s["alerts"]["frequency"] = json!("daily");
        s["alerts"]["influencers"]["twitterFollowers"] = json!(50000);
        assert_eq!(put_settings(&f.app, &f.hash, &s).await.status, 200);
        // An alert waiting for the next digest when the owner switches to realtime goes out at
        // the next round, not weeks later.
        let lines = vec![json!({"platform": "twitter", "id": "big2", "text": "coffee again from a star", "createdAt": hark_core::now_millis() - 60_000,
            "author": {"username": "star", "name": "Star", "followers": 130000}})];
        assert_eq!(f.app.import_posts(&f.hash, &lines).await.status, 200);
        let r = notify::run_round(&f.state, hark_core::now_millis() + 60_000).await.unwrap();
        assert_eq!((r.events, r.deliveries), (1, 0));
        s["alerts"]["frequency"] = json!("realtime");
        assert_eq!(put_settings(&f.app, &f.hash, &s).await.status, 200);
        let r = notify::run_round(&f.state, hark_core::now_millis() + 90_000).await.unwrap();
        assert_eq!(r.deliveries, 1, "{r:?}");
        assert!(f.app.store.waiting_events(f.tracker_id).await.unwrap().is_empty());
    }
}

/// The first application/pdf part of a raw message, decoded.
fn attachment(data: &str) -> Option<Vec<u8>> {
    use base64::Engine as _;
    let at = data.find("Content-Type: application/pdf")?;
    let rest = &data[at..];
    let start = rest.find("\r\n\r\n")? + 4;
    let body: String = rest[start..].lines().take_while(|l| !l.starts_with("--")).collect::<Vec<_>>().concat();
    base64::engine::general_purpose::STANDARD.decode(body.trim()).ok()
}

/// The PDF's text through pdftotext (poppler-utils, which `make test` installs).
fn pdf_text(pdf: &[u8]) -> Option<String> {
    let dir = tempfile::tempdir().ok()?;
    let p = dir.path().join("r.pdf");
    std::fs::write(&p, pdf).ok()?;
    let out = std::process::Command::new("pdftotext").arg(&p).arg("-").output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).to_string())
}
