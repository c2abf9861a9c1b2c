//! Exports as background jobs: the XLS workbook read back cell by cell against the API's own
//! answers, who may export and read a job, plan gating, and a job whose server stopped finishing
//! after it; on SQLite and (when configured) PostgreSQL.

use std::io::Cursor;
use std::time::Duration;

use calamine::{open_workbook_from_rs, Data, Reader, Xlsx};
use hark_core::Permission;
use hark_testkit::{csrf_of, each_app as each, send, TestApp};
use serde_json::{json, Value};

const DAY: i64 = 86_400_000;
const NOW: i64 = 1_790_000_000_000;

/// A tracker on "coffee" with posts over ten days; one text looks like a spreadsheet formula.
async fn seeded(app: &TestApp) -> String {
    app.setup_admin().await;
    let t = app.create_tracker("coffee").await;
    let hash = t["hash"].as_str().unwrap().to_string();
    let mut lines = Vec::new();
    for i in 0..40i64 {
        let text = match i {
            0 => "=HYPERLINK(\"http://x\") coffee".to_string(),
            7 => "great coffee, love it".to_string(),
            _ => format!("coffee number {i}"),
        };
        lines.push(json!({
            "platform": "twitter", "id": format!("{}", 1000 + i), "text": text,
            "createdAt": NOW - (i % 10) * DAY - i * 60_000,
            "author": {"username": format!("user{}", i % 7), "name": format!("User {}", i % 7), "followers": 100 * (i % 7)},
            "counts": {"likes": i, "retweets": i % 3},
            "location": {"country": if i % 2 == 0 { "US" } else { "FR" }}
        }));
    }
    let res = app.import_posts(&hash, &lines).await;
    assert_eq!(res.body["imported"], 40, "{:?}", res.body);
    hash
}

async fn row_id(app: &TestApp, hash: &str) -> i64 {
    app.store.tracker_by_hash(hash).await.unwrap().unwrap().id
}

/// Waits until the job is no longer waiting or running.
async fn finished(app: &TestApp, client: &reqwest::Client, token: &str, query: &str) -> Value {
    for _ in 0..300 {
        let r = send(client.get(app.url(&format!("/api/v1/exports/{token}{query}")))).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        if r.body["state"] == "ready" || r.body["state"] == "failed" {
            return r.body;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the export did not finish");
}

async fn download(app: &TestApp, client: &reqwest::Client, path: &str) -> (u16, String, Vec<u8>) {
    let r = client.get(app.url(path)).send().await.expect("file");
    let status = r.status().as_u16();
    let disposition = r.headers().get("content-disposition").and_then(|h| h.to_str().ok()).unwrap_or("").to_string();
    (status, disposition, r.bytes().await.expect("body").to_vec())
}

fn workbook(bytes: Vec<u8>) -> Xlsx<Cursor<Vec<u8>>> {
    open_workbook_from_rs(Cursor::new(bytes)).expect("an XLSX file")
}

fn num(d: &Data) -> f64 {
    match d {
        Data::Float(x) => *x,
        Data::Int(n) => *n as f64,
        other => panic!("not a number: {other:?}"),
    }
}

fn text(d: &Data) -> String {
    match d {
        Data::String(s) => s.clone(),
        Data::Empty => String::new(),
        other => panic!("not text: {other:?}"),
    }
}

/// Excel's serial day number of a moment in UTC.
fn serial(ms: i64) -> f64 {
    ms as f64 / DAY as f64 + 25_569.0
}

#[tokio::test]
async fn the_dashboard_workbook_holds_every_panel_and_every_post() {
    each(|app| async move {
        let hash = seeded(&app).await;
        let q = "days=all";
        let created = app.post(&format!("/api/v1/trackers/{hash}/exports?{q}"), json!({"kind": "xlsx", "source": "dashboard"})).await;
        assert_eq!(created.status, 202, "{:?}", created.body);
        assert_eq!(created.body["kind"], "xlsx");
        let token = created.body["token"].as_str().unwrap().to_string();
        assert_eq!(token.len(), 32);
        let done = finished(&app, &app.client, &token, "").await;
        assert_eq!(done["state"], "ready", "{done:?}");
        assert_eq!(done["done"], done["total"]);
        let url = done["fileUrl"].as_str().unwrap().to_string();
        assert_eq!(url, format!("/export/hashtag/{token}.xlsx"));
        let (status, disposition, bytes) = download(&app, &app.client, &url).await;
        assert_eq!(status, 200);
        assert!(disposition.starts_with("attachment;") && disposition.contains(".xlsx"), "{disposition}");
        let mut wb = workbook(bytes);
        assert_eq!(
            wb.sheet_names(),
            [
                "Key statistics", "Timeline", "Top posts", "Influencers", "Topics", "Sentiment", "Locations", "Gender",
                "Devices", "Links", "Post types", "Share of voice", "Posts"
            ]
        );

        // Key statistics equal the dashboard's.
        let stats = app.get(&format!("/api/v1/trackers/{hash}/dashboard/top-stats?{q}")).await.body;
        let ks = wb.worksheet_range("Key statistics").unwrap();
        let value = |label: &str| -> f64 {
            let row = ks.rows().find(|r| matches!(&r[0], Data::String(s) if s == label)).unwrap_or_else(|| panic!("{label}"));
            num(&row[1])
        };
        assert_eq!(value("Posts"), stats["posts"].as_f64().unwrap());
        assert_eq!(value("Users"), stats["users"].as_f64().unwrap());
        assert_eq!(value("Engagement"), stats["engagement"].as_f64().unwrap());
        assert_eq!(value("Reach"), stats["reach"].as_f64().unwrap());

        // The timeline: dates as dates, the same buckets and counts as the API's.
        let timeline = app.get(&format!("/api/v1/trackers/{hash}/dashboard/timeline?{q}")).await.body;
        let buckets = timeline["buckets"].as_array().unwrap();
        let tl = wb.worksheet_range("Timeline").unwrap();
        assert_eq!(tl.height(), buckets.len() + 1);
        for (i, b) in buckets.iter().enumerate() {
            let row = i as u32 + 1;
            match tl.get_value((row, 0)).unwrap() {
                Data::DateTime(d) => assert!((d.as_f64() - serial(b["t"].as_i64().unwrap())).abs() < 1e-6),
                other => panic!("not a date: {other:?}"),
            }
            assert_eq!(num(tl.get_value((row, 1)).unwrap()), b["posts"].as_f64().unwrap());
            assert_eq!(num(tl.get_value((row, 2)).unwrap()), b["engagement"].as_f64().unwrap());
        }

        // Sentiment and locations as the panels count them.
        let s = app.get(&format!("/api/v1/trackers/{hash}/dashboard/sentiments?{q}")).await.body;
        let sheet = wb.worksheet_range("Sentiment").unwrap();
        assert_eq!(num(sheet.get_value((1, 1)).unwrap()), s["positive"].as_f64().unwrap());
        assert_eq!(num(sheet.get_value((2, 1)).unwrap()), s["neutral"].as_f64().unwrap());
        assert_eq!(num(sheet.get_value((3, 1)).unwrap()), s["negative"].as_f64().unwrap());
        let loc = app.get(&format!("/api/v1/trackers/{hash}/dashboard/locations?{q}")).await.body;
        let sheet = wb.worksheet_range("Locations").unwrap();
        for (i, c) in loc["countries"].as_array().unwrap().iter().enumerate() {
            assert_eq!(text(sheet.get_value((i as u32 + 1, 1)).unwrap()), c["country"].as_str().unwrap());
            assert_eq!(num(sheet.get_value((i as u32 + 1, 2)).unwrap()), c["count"].as_f64().unwrap());
        }
        let infl = app.get(&format!("/api/v1/trackers/{hash}/dashboard/influencers?{q}")).await.body;
        let sheet = wb.worksheet_range("Influencers").unwrap();
        let first = &infl["byEngagement"][0];
        assert_eq!(text(sheet.get_value((2, 3)).unwrap()), first["username"].as_str().unwrap());
        assert_eq!(num(sheet.get_value((2, 5)).unwrap()), first["engagement"].as_f64().unwrap());

        // Every post, newest first, typed cell by cell as the posts API gives them.
        let posts = app.get(&format!("/api/v1/trackers/{hash}/posts?{q}&perPage=100")).await.body;
        let list = posts["posts"].as_array().unwrap();
        assert_eq!(list.len(), 40);
        let sheet = wb.worksheet_range("Posts").unwrap();
        assert_eq!(sheet.height(), 41);
        assert_eq!(text(sheet.get_value((0, 0)).unwrap()), "Date (UTC)");
        for (i, p) in list.iter().enumerate() {
            let row = i as u32 + 1;
            match sheet.get_value((row, 0)).unwrap() {
                Data::DateTime(d) => {
                    let want = serial(p["post"]["createdAt"].as_i64().unwrap() / 1000 * 1000);
                    assert!((d.as_f64() - want).abs() < 1e-6, "row {row}");
                }
                other => panic!("not a date: {other:?}"),
            }
            assert_eq!(text(sheet.get_value((row, 3)).unwrap()), p["post"]["author"]["username"].as_str().unwrap());
            assert_eq!(text(sheet.get_value((row, 5)).unwrap()), p["post"]["text"].as_str().unwrap(), "row {row}");
            assert_eq!(num(sheet.get_value((row, 8)).unwrap()), p["post"]["counts"]["likes"].as_f64().unwrap());
            assert_eq!(num(sheet.get_value((row, 12)).unwrap()), p["engagement"].as_f64().unwrap());
            assert_eq!(text(sheet.get_value((row, 16)).unwrap()), p["sentimentBucket"].as_str().unwrap());
        }
        // A text that looks like a formula stays text.
        assert!(sheet.rows().any(|r| r[5] == Data::String("=HYPERLINK(\"http://x\") coffee".into())));

        // The caller's list shows the job.
        let mine = app.get(&format!("/api/v1/trackers/{hash}/exports")).await;
        assert_eq!(mine.body["exports"][0]["token"], token.as_str());
    })
    .await;
}

#[tokio::test]
async fn the_posts_page_workbook_is_the_list_as_searched_and_sorted() {
    each(|app| async move {
        let hash = seeded(&app).await;
        let q = "days=all&search=love&sort=engagement;desc";
        let created = app.post(&format!("/api/v1/trackers/{hash}/exports?{q}"), json!({"kind": "xlsx", "source": "posts"})).await;
        assert_eq!(created.status, 202, "{:?}", created.body);
        let done = finished(&app, &app.client, created.body["token"].as_str().unwrap(), "").await;
        assert_eq!(done["state"], "ready", "{done:?}");
        let (_, _, bytes) = download(&app, &app.client, done["fileUrl"].as_str().unwrap()).await;
        let mut wb = workbook(bytes);
        assert_eq!(wb.sheet_names(), ["Posts"]);
        let sheet = wb.worksheet_range("Posts").unwrap();
        assert_eq!(sheet.height(), 2);
        assert_eq!(text(sheet.get_value((1, 5)).unwrap()), "great coffee, love it");

        // Bad input is the caller's error, and makes no job.
        let bad = app.post(&format!("/api/v1/trackers/{hash}/exports?days=all"), json!({"kind": "docx", "source": "posts"})).await;
        assert_eq!((bad.status, bad.body["error"]["code"].as_str()), (422, Some("invalid_choice")));
        let bad = app.post(&format!("/api/v1/trackers/{hash}/exports?days=-4"), json!({"kind": "xlsx", "source": "posts"})).await;
        assert_eq!((bad.status, bad.body["error"]["code"].as_str()), (400, Some("invalid_query")));
        let bad = app.post(&format!("/api/v1/trackers/{hash}/exports?sort=nope"), json!({"kind": "xlsx", "source": "posts"})).await;
        assert_eq!(bad.status, 400, "{:?}", bad.body);
        let bad = app.post(&format!("/api/v1/trackers/{hash}/exports"), json!({"kind": "xlsx", "source": "wall"})).await;
        assert_eq!((bad.status, bad.body["error"]["code"].as_str()), (400, Some("invalid_json")));
        assert_eq!(app.get(&format!("/api/v1/trackers/{hash}/exports")).await.body["exports"].as_array().unwrap().len(), 1);
        let missing = app.get("/api/v1/exports/00000000000000000000000000000000").await;
        assert_eq!((missing.status, missing.body["error"]["code"].as_str()), (404, Some("not_found")));
        assert_eq!(app.get("/export/hashtag/not-a-token.xlsx").await.status, 404);
    })
    .await;
}

#[tokio::test]
async fn who_may_export_and_read_a_job() {
    each(|app| async move {
        let hash = seeded(&app).await;
        let path = format!("/api/v1/trackers/{hash}/exports?days=all");
        let body = json!({"kind": "xlsx", "source": "dashboard"});
        let mine = app.post(&path, body.clone()).await;
        let token = mine.body["token"].as_str().unwrap().to_string();
        let done = finished(&app, &app.client, &token, "").await;
        let file = done["fileUrl"].as_str().unwrap().to_string();

        // Signed out: 401 everywhere.
        let (anon, jar) = app.new_browser();
        let anon_csrf = csrf_of(&anon, &jar, &app.base).await;
        let r = send(anon.post(app.url(&path)).header("X-CSRF-Token", &anon_csrf).json(&body)).await;
        assert_eq!(r.status, 401);
        assert_eq!(send(anon.get(app.url(&format!("/api/v1/exports/{token}")))).await.status, 401);
        assert_eq!(download(&app, &anon, &file).await.0, 401);

        // A viewer may not export (the tracker does not share exports), nor read the owner's job.
        let (viewer, v_csrf) = app.member_browser(&hash, "viewer@example.org", Permission::Viewer).await;
        let r = send(viewer.post(app.url(&path)).header("X-CSRF-Token", &v_csrf).json(&body)).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (403, Some("forbidden")));
        assert_eq!(download(&app, &viewer, &file).await.0, 403);

        // An administrator may export, but the owner's job stays the owner's.
        let (admin, a_csrf) = app.member_browser(&hash, "admin2@example.org", Permission::Administrator).await;
        assert_eq!(send(admin.get(app.url(&format!("/api/v1/exports/{token}")))).await.status, 404);
        assert_eq!(download(&app, &admin, &file).await.0, 404);
        let r = send(admin.post(app.url(&path)).header("X-CSRF-Token", &a_csrf).json(&body)).await;
        assert_eq!(r.status, 202, "{:?}", r.body);

        // On plan 15 the XLS is an upgrade.
        let u = app.store.user_by_email("admin2@example.org").await.unwrap().unwrap();
        let plan = hark_store::AccountPlan { plan: 15, trial: false, trial_expires: None, max_searches: 5, max_ignored: 5, is_admin: false };
        app.store.set_account_plan(u.id, &plan, None).await.unwrap();
        let r = send(admin.post(app.url(&path)).header("X-CSRF-Token", &a_csrf).json(&body)).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (403, Some("upgrade_required")));

        // The share link: only with 'Export reports', and its jobs read with the link.
        let key = app.get(&format!("/api/v1/trackers/{hash}/share")).await.body["shareHash"].as_str().unwrap().to_string();
        let shared_path = format!("{path}&shareHash={key}");
        let r = send(anon.post(app.url(&shared_path)).header("X-CSRF-Token", &anon_csrf).json(&body)).await;
        assert_eq!(r.status, 403);
        let on = app
            .send_json("PUT", &format!("/api/v1/trackers/{hash}/share"), json!({"linkSharing": {"exportReports": true}}))
            .await;
        assert_eq!(on.status, 200, "{:?}", on.body);
        let r = send(anon.post(app.url(&shared_path)).header("X-CSRF-Token", &anon_csrf).json(&body)).await;
        assert_eq!(r.status, 202, "{:?}", r.body);
        let visitor_token = r.body["token"].as_str().unwrap().to_string();
        let seen = finished(&app, &anon, &visitor_token, &format!("?shareHash={key}")).await;
        assert_eq!(seen["state"], "ready");
        let visitor_file = seen["fileUrl"].as_str().unwrap().to_string();
        assert!(visitor_file.ends_with(&format!(".xlsx?shareHash={key}")), "the visitor's link carries the share hash: {visitor_file}");
        assert_eq!(download(&app, &anon, &visitor_file).await.0, 200);
        // A signed-in account without access of its own, through the link: the job is the link's.
        let (outsider, o_csrf) = app.member_browser(&hash, "outsider@example.org", Permission::Viewer).await;
        let outsider_id = app.store.user_by_email("outsider@example.org").await.unwrap().unwrap().id;
        app.store.remove_member(row_id(&app, &hash).await, outsider_id, None).await.unwrap();
        let r = send(outsider.post(app.url(&shared_path)).header("X-CSRF-Token", &o_csrf).json(&body)).await;
        assert_eq!(r.status, 202, "{:?}", r.body);
        let theirs = finished(&app, &outsider, r.body["token"].as_str().unwrap(), &format!("?shareHash={key}")).await;
        assert_eq!(download(&app, &outsider, theirs["fileUrl"].as_str().unwrap()).await.0, 200);
        // The link opens the visitor's job only, and nothing once revoked.
        assert_eq!(download(&app, &anon, &format!("{file}?shareHash={key}")).await.0, 404);
        assert_eq!(app.post(&format!("/api/v1/trackers/{hash}/share/revoke"), json!({})).await.status, 200);
        assert_eq!(download(&app, &anon, &visitor_file).await.0, 401);
    })
    .await;
}

#[tokio::test]
async fn a_job_whose_server_stopped_is_made_again_and_files_expire() {
    each(|app| async move {
        let hash = seeded(&app).await;
        let row = app.store.tracker_by_hash(&hash).await.unwrap().unwrap();
        let user = app.store.user_by_email("admin@example.org").await.unwrap().unwrap();
        let now = hark_core::now_millis();
        let params = json!({"source": "dashboard", "query": "days=all", "now": now}).to_string();
        // A job another server leased, then stopped while making it: its lease ran out.
        let job = app
            .store
            .create_export(&hark_store::NewExport {
                token: "0123456789abcdef0123456789abcdef",
                tracker_id: row.id,
                user_id: Some(user.id),
                kind: hark_core::ExportKind::Xlsx,
                params: &params,
                now,
                expires_at: now + DAY,
            })
            .await
            .unwrap();
        // The running server's worker may not take it first: this one leases it for a moment.
        let leased = app.store.lease_export("stopped-server", now, now + 1).await.unwrap();
        if let Some(l) = leased {
            assert_eq!((l.id, l.attempts), (job.id, 1));
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let done = finished(&app, &app.client, "0123456789abcdef0123456789abcdef", "").await;
        assert_eq!(done["state"], "ready", "{done:?}");
        let kept = app.store.export_by_token("0123456789abcdef0123456789abcdef").await.unwrap().unwrap();
        assert!(kept.attempts >= 1 && kept.lease_owner.is_none());
        // The stopped server's late progress is refused: the lease is no longer its.
        assert!(!app.store.export_progress(job.id, "stopped-server", 1, 2, now, now + 1000).await.unwrap());
        let (status, _, _) = download(&app, &app.client, done["fileUrl"].as_str().unwrap()).await;
        assert_eq!(status, 200);
        // Expired: the job and its file go.
        assert_eq!(app.store.remove_expired_exports(kept.expires_at + 1).await.unwrap(), 1);
        assert_eq!(app.get("/api/v1/exports/0123456789abcdef0123456789abcdef").await.status, 404);
    })
    .await;
}

#[tokio::test]
async fn the_sample_workbook_has_the_sheets_of_a_real_one() {
    let app = TestApp::spawn(hark_testkit::backends()[0]).await;
    let (status, disposition, bytes) = download(&app, &app.client, "/api/v1/exports/sample.xlsx").await;
    assert_eq!(status, 200);
    assert!(disposition.contains("hark-sample-report.xlsx"), "{disposition}");
    let mut wb = workbook(bytes);
    assert_eq!(wb.sheet_names().len(), 13);
    assert_eq!(wb.sheet_names()[12], "Posts");
    let posts = wb.worksheet_range("Posts").unwrap();
    assert_eq!(posts.height(), 6);
    assert!(matches!(posts.get_value((1, 0)), Some(Data::DateTime(_))));
}

#[tokio::test]
async fn the_posts_csv_is_the_api_list_in_every_order() {
    each(|app| async move {
        let hash = seeded(&app).await;
        for q in ["days=all", "days=all&sort=engagement;desc", "days=all&sort=created_at;asc&search=coffee", "days=all&sentiment=positive"] {
            let res = app.client.get(app.url(&format!("/api/v1/trackers/{hash}/posts/export.csv?{q}"))).send().await.unwrap();
            assert_eq!(res.status(), 200);
            let body = res.bytes().await.unwrap();
            assert!(body.starts_with("\u{feff}".as_bytes()), "UTF-8 with a byte order mark");
            let mut reader = csv::Reader::from_reader(&body[3..]);
            let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
            let api = app.get(&format!("/api/v1/trackers/{hash}/posts?{q}&perPage=100")).await.body;
            let list = api["posts"].as_array().unwrap();
            assert_eq!(rows.len(), list.len(), "{q}");
            assert_eq!(api["total"].as_u64().unwrap() as usize, rows.len(), "{q}");
            for (r, p) in rows.iter().zip(list) {
                assert_eq!(&r[3], p["post"]["author"]["username"].as_str().unwrap(), "{q}");
                let text = p["post"]["text"].as_str().unwrap();
                let want = if text.starts_with('=') { format!("'{text}") } else { text.to_string() };
                assert_eq!(&r[5], want, "{q}");
                assert_eq!(&r[12], p["engagement"].to_string(), "{q}");
            }
        }
    })
    .await;
}

/// The text of a PDF, as poppler's pdftotext reads it (layout kept).
fn pdf_text(bytes: &[u8]) -> String {
    // HARK_TEST_KEEP_PDF=dir keeps each report there, to render and look at.
    if let Ok(keep) = std::env::var("HARK_TEST_KEEP_PDF") {
        let n = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        let _ = std::fs::write(std::path::Path::new(&keep).join(format!("report-{n}.pdf")), bytes);
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("report.pdf");
    std::fs::write(&path, bytes).expect("write");
    let out = std::process::Command::new("pdftotext").arg("-layout").arg(&path).arg("-").output().expect("pdftotext (poppler-utils)");
    assert!(out.status.success(), "pdftotext: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8")
}

#[tokio::test]
async fn the_pdf_report_reads_as_the_dashboard() {
    each(|app| async move {
        let hash = seeded(&app).await;
        let q = "days=all";
        let body = json!({"kind": "pdf", "source": "dashboard", "eri": "Engagements", "cumulative": true, "paper": "letter"});
        let created = app.post(&format!("/api/v1/trackers/{hash}/exports?{q}"), body).await;
        assert_eq!(created.status, 202, "{:?}", created.body);
        let done = finished(&app, &app.client, created.body["token"].as_str().unwrap(), "").await;
        assert_eq!(done["state"], "ready", "{done:?}");
        let url = done["fileUrl"].as_str().unwrap().to_string();
        assert!(url.ends_with(".pdf"), "{url}");
        let (status, disposition, bytes) = download(&app, &app.client, &url).await;
        assert_eq!(status, 200);
        assert!(disposition.starts_with("inline;"), "a PDF opens in the browser: {disposition}");
        assert!(bytes.starts_with(b"%PDF-"));
        let text = pdf_text(&bytes);
        let title = app.get(&format!("/api/v1/trackers/{hash}")).await.body["title"].as_str().unwrap().to_string();
        assert!(text.contains(&title), "the cover names the tracker: {text}");
        for part in ["SOCIAL LISTENING REPORT", "Timeline", "Sentiment", "Locations", "Top posts", "Influencers", "Hashtags", "Keywords", "Page 1 of"] {
            assert!(text.contains(part), "{part} missing from:\n{text}");
        }
        let stats = app.get(&format!("/api/v1/trackers/{hash}/dashboard/top-stats?{q}")).await.body;
        assert!(text.contains(&stats["posts"].to_string()), "the post count is on the cover");
        // The most engaging post and account are in it, texts as written (not run as markup).
        let top = app.get(&format!("/api/v1/trackers/{hash}/dashboard/top-posts?{q}")).await.body;
        let first = top["posts"][0]["text"].as_str().unwrap();
        assert!(text.contains(first), "{first} missing");
        assert!(text.contains("=HYPERLINK(\"http://x\") coffee") || !top["posts"].to_string().contains("HYPERLINK"));
        // From the posts page: the list as searched.
        let created = app.post(&format!("/api/v1/trackers/{hash}/exports?{q}&search=love"), json!({"kind": "pdf", "source": "posts"})).await;
        assert_eq!(created.status, 202, "{:?}", created.body);
        let done = finished(&app, &app.client, created.body["token"].as_str().unwrap(), "").await;
        assert_eq!(done["state"], "ready", "{done:?}");
        let text = pdf_text(&download(&app, &app.client, done["fileUrl"].as_str().unwrap()).await.2);
        assert!(text.contains("The first 1 of 1 posts of the list matching"), "{text}");
        assert!(text.contains("great coffee, love it") && !text.contains("coffee number 3 "), "{text}");
        let bad = app.post(&format!("/api/v1/trackers/{hash}/exports?{q}"), json!({"kind": "pdf", "source": "dashboard", "paper": "a3"})).await;
        assert_eq!((bad.status, bad.body["error"]["code"].as_str()), (422, Some("invalid_choice")));
        let bad = app.post(&format!("/api/v1/trackers/{hash}/exports?{q}"), json!({"kind": "pdf", "source": "dashboard", "eri": "Likes"})).await;
        assert_eq!((bad.status, bad.body["error"]["code"].as_str()), (422, Some("invalid_choice")));
    })
    .await;
}

#[test]
fn the_sample_report_typesets_with_markup_like_texts_as_text() {
    let pdf = hark_api::exports::pdf::sample().expect("the sample report");
    let text = pdf_text(&pdf);
    assert!(text.contains("Sample report: #coffee"), "{text}");
    assert!(text.contains("Brew Lab") && text.contains("Page 2 of"), "{text}");
}
