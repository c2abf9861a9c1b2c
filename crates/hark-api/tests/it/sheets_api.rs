//! The Google Sheets export against a fake Google on 127.0.0.1: the token endpoint checks the
//! JWT grant (signature by the uploaded key, issuer, audience, scope, expiry), the Sheets API
//! keeps the cells that `batchUpdate` writes (and refuses cells outside a sheet's grid, as Google
//! does), and the Drive API records who the file is shared with. Also the administrator's key
//! settings (sealed at rest, never sent back), plan gating, Google's refusals reaching the job,
//! and the timeline CSV; on SQLite and (when configured) PostgreSQL.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::{Form, Json, Router};
use hark_core::Permission;
use hark_testkit::{each_app as each, TestApp};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::{json, Value};

const DAY: i64 = 86_400_000;
const NOW: i64 = 1_790_000_000_000;
const EMAIL: &str = "hark-export@example-project.iam.gserviceaccount.com";

/// One RSA key pair for every test of the file (generating one takes a moment).
fn key_pair() -> &'static (String, String) {
    static PAIR: OnceLock<(String, String)> = OnceLock::new();
    PAIR.get_or_init(|| {
        use rsa::pkcs8::{EncodePrivateKey, EncodePublicKey, LineEnding};
        let private = rsa::RsaPrivateKey::new(&mut rand::thread_rng(), 2048).expect("key");
        let public = rsa::RsaPublicKey::from(&private);
        (
            private.to_pkcs8_pem(LineEnding::LF).expect("pem").to_string(),
            public.to_public_key_pem(LineEnding::LF).expect("pem"),
        )
    })
}

#[derive(Default, Debug, Clone)]
struct Grid {
    title: String,
    rows: u32,
    cols: u32,
    /// Rows of CellData, as written.
    cells: Vec<Vec<Value>>,
}

#[derive(Default)]
struct Book {
    title: String,
    time_zone: String,
    sheets: HashMap<u64, Grid>,
    charts: usize,
}

#[derive(Default)]
struct Fake {
    base: String,
    /// Verified grants' claims.
    grants: Vec<Value>,
    books: HashMap<String, Book>,
    permissions: Vec<(String, Value)>,
    /// Every batchUpdate answers this status and message when set.
    refuse_writes: Option<(u16, String)>,
}

type Shared = Arc<Mutex<Fake>>;

fn google_error(status: StatusCode, message: &str) -> (StatusCode, Json<Value>) {
    (status, Json(json!({"error": {"code": status.as_u16(), "message": message, "status": "FAILED_PRECONDITION"}})))
}

fn authorised(headers: &HeaderMap) -> bool {
    headers.get("authorization").and_then(|h| h.to_str().ok()) == Some("Bearer fake-token")
}

async fn token(State(fake): State<Shared>, Form(form): Form<HashMap<String, String>>) -> (StatusCode, Json<Value>) {
    let bad = |why: &str| (StatusCode::BAD_REQUEST, Json(json!({"error": "invalid_grant", "error_description": why})));
    if form.get("grant_type").map(String::as_str) != Some("urn:ietf:params:oauth:grant-type:jwt-bearer") {
        return bad("unsupported grant type");
    }
    let Some(assertion) = form.get("assertion") else { return bad("no assertion") };
    let base = fake.lock().unwrap().base.clone();
    let mut v = Validation::new(Algorithm::RS256);
    v.set_audience(&[format!("{base}/token")]);
    v.set_issuer(&[EMAIL]);
    v.set_required_spec_claims(&["exp", "iss", "aud"]);
    let key = DecodingKey::from_rsa_pem(key_pair().1.as_bytes()).unwrap();
    let data = match jsonwebtoken::decode::<Value>(assertion, &key, &v) {
        Ok(d) => d,
        Err(e) => return bad(&format!("Invalid JWT Signature. ({e})")),
    };
    if data.header.kid.as_deref() != Some("key-1") {
        return bad("unknown key id");
    }
    let scope = data.claims["scope"].as_str().unwrap_or("");
    if !scope.split(' ').any(|s| s == "https://www.googleapis.com/auth/spreadsheets")
        || !scope.split(' ').any(|s| s == "https://www.googleapis.com/auth/drive.file")
    {
        return bad("scope");
    }
    let (iat, exp) = (data.claims["iat"].as_i64().unwrap_or(0), data.claims["exp"].as_i64().unwrap_or(0));
    if exp - iat > 3600 {
        return bad("the assertion lives longer than an hour");
    }
    fake.lock().unwrap().grants.push(data.claims);
    (StatusCode::OK, Json(json!({"access_token": "fake-token", "expires_in": 3599, "token_type": "Bearer"})))
}

async fn create(State(fake): State<Shared>, headers: HeaderMap, Json(body): Json<Value>) -> (StatusCode, Json<Value>) {
    if !authorised(&headers) {
        return google_error(StatusCode::UNAUTHORIZED, "Request had invalid authentication credentials.");
    }
    let mut f = fake.lock().unwrap();
    let id = format!("sheet{}", f.books.len() + 1);
    let mut book = Book {
        title: body["properties"]["title"].as_str().unwrap_or("").into(),
        time_zone: body["properties"]["timeZone"].as_str().unwrap_or("").into(),
        ..Default::default()
    };
    for s in body["sheets"].as_array().cloned().unwrap_or_default() {
        let p = &s["properties"];
        let g = &p["gridProperties"];
        book.sheets.insert(
            p["sheetId"].as_u64().unwrap(),
            Grid {
                title: p["title"].as_str().unwrap().into(),
                rows: g["rowCount"].as_u64().unwrap_or(1000) as u32,
                cols: g["columnCount"].as_u64().unwrap_or(26) as u32,
                cells: Vec::new(),
            },
        );
    }
    let url = format!("{}/spreadsheets/d/{id}/edit", f.base);
    f.books.insert(id.clone(), book);
    (StatusCode::OK, Json(json!({"spreadsheetId": id, "spreadsheetUrl": url, "properties": body["properties"], "sheets": body["sheets"]})))
}

fn put_rows(grid: &mut Grid, row: usize, col: usize, rows: &[Value]) -> Result<(), String> {
    for (r, data) in rows.iter().enumerate() {
        let values = data["values"].as_array().cloned().unwrap_or_default();
        let at = row + r;
        if at as u32 >= grid.rows || (col + values.len()) as u32 > grid.cols {
            return Err(format!("Range ('{}'!R{}C{}) exceeds grid limits. Max rows: {}, max columns: {}", grid.title, at + 1, col + values.len(), grid.rows, grid.cols));
        }
        if grid.cells.len() <= at {
            grid.cells.resize(at + 1, Vec::new());
        }
        let line = &mut grid.cells[at];
        if line.len() < col + values.len() {
            line.resize(col + values.len(), json!({}));
        }
        for (c, v) in values.into_iter().enumerate() {
            line[col + c] = v;
        }
    }
    Ok(())
}

async fn batch_update(
    State(fake): State<Shared>,
    Path(target): Path<String>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> (StatusCode, Json<Value>) {
    if !authorised(&headers) {
        return google_error(StatusCode::UNAUTHORIZED, "Request had invalid authentication credentials.");
    }
    let mut f = fake.lock().unwrap();
    if let Some((status, message)) = f.refuse_writes.clone() {
        return google_error(StatusCode::from_u16(status).unwrap(), &message);
    }
    let Some(id) = target.strip_suffix(":batchUpdate") else { return google_error(StatusCode::NOT_FOUND, "no such method") };
    let Some(book) = f.books.get_mut(id) else { return google_error(StatusCode::NOT_FOUND, "Requested entity was not found.") };
    let requests = body["requests"].as_array().cloned().unwrap_or_default();
    for r in &requests {
        let outcome = if let Some(u) = r.get("updateCells") {
            let s = &u["start"];
            match (u["fields"].as_str(), book.sheets.get_mut(&s["sheetId"].as_u64().unwrap_or(u64::MAX))) {
                (Some(_), Some(grid)) => put_rows(
                    grid,
                    s["rowIndex"].as_u64().unwrap_or(0) as usize,
                    s["columnIndex"].as_u64().unwrap_or(0) as usize,
                    u["rows"].as_array().map(Vec::as_slice).unwrap_or(&[]),
                ),
                _ => Err("updateCells needs fields and a known sheetId".into()),
            }
        } else if let Some(a) = r.get("appendCells") {
            match (a["fields"].as_str(), book.sheets.get_mut(&a["sheetId"].as_u64().unwrap_or(u64::MAX))) {
                (Some(_), Some(grid)) => {
                    let rows = a["rows"].as_array().cloned().unwrap_or_default();
                    // Appending inserts the rows the sheet lacks.
                    let at = grid.cells.len();
                    grid.rows = grid.rows.max((at + rows.len()) as u32);
                    put_rows(grid, at, 0, &rows)
                }
                _ => Err("appendCells needs fields and a known sheetId".into()),
            }
        } else if r.get("updateDimensionProperties").is_some() {
            Ok(())
        } else if let Some(c) = r.get("addChart") {
            let spec = &c["chart"]["spec"]["basicChart"];
            if spec["domains"].as_array().map(Vec::len) == Some(1) && spec["series"].as_array().map(Vec::len) == Some(1) {
                book.charts += 1;
                Ok(())
            } else {
                Err("a chart needs a domain and a series".into())
            }
        } else {
            Err(format!("Invalid requests[0]: unknown request {r}"))
        };
        if let Err(m) = outcome {
            return google_error(StatusCode::BAD_REQUEST, &m);
        }
    }
    (StatusCode::OK, Json(json!({"spreadsheetId": id, "replies": requests.iter().map(|_| json!({})).collect::<Vec<_>>()})))
}

async fn permission(
    State(fake): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> (StatusCode, Json<Value>) {
    if !authorised(&headers) {
        return google_error(StatusCode::UNAUTHORIZED, "Request had invalid authentication credentials.");
    }
    let mut f = fake.lock().unwrap();
    if !f.books.contains_key(&id) {
        return google_error(StatusCode::NOT_FOUND, "File not found.");
    }
    f.permissions.push((id, body.clone()));
    (StatusCode::OK, Json(json!({"kind": "drive#permission", "id": "perm1", "type": body["type"], "role": body["role"]})))
}

/// Starts the fake Google; its state and base URL.
async fn fake_google() -> (Shared, String) {
    let fake: Shared = Arc::default();
    let app = Router::new()
        .route("/token", post(token))
        .route("/v4/spreadsheets", post(create))
        .route("/v4/spreadsheets/{target}", post(batch_update))
        .route("/drive/v3/files/{id}/permissions", post(permission))
        .with_state(fake.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    fake.lock().unwrap().base = base.clone();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (fake, base)
}

fn key_file(base: &str, private_pem: &str) -> String {
    json!({
        "type": "service_account",
        "project_id": "example-project",
        "private_key_id": "key-1",
        "private_key": private_pem,
        "client_email": EMAIL,
        "client_id": "1234567890",
        "auth_uri": "https://accounts.google.com/o/oauth2/auth",
        "token_uri": format!("{base}/token"),
    })
    .to_string()
}

async fn seeded(app: &TestApp) -> String {
    app.setup_admin().await;
    let hash = app.create_tracker("coffee").await["hash"].as_str().unwrap().to_string();
    let lines: Vec<Value> = (0..30i64)
        .map(|i| {
            let text = match i {
                0 => "=HYPERLINK(\"http://x\") coffee".to_string(),
                4 => "love this coffee".to_string(),
                _ => format!("coffee number {i}"),
            };
            json!({
                "platform": "twitter", "id": format!("{}", 5000 + i), "text": text,
                "createdAt": NOW - (i % 8) * DAY - i * 60_000,
                "author": {"username": format!("user{}", i % 5), "name": format!("User {}", i % 5)},
                "counts": {"likes": i, "retweets": i % 3}
            })
        })
        .collect();
    assert_eq!(app.import_posts(&hash, &lines).await.body["imported"], 30);
    hash
}

async fn finished(app: &TestApp, token: &str) -> Value {
    for _ in 0..300 {
        let r = app.get(&format!("/api/v1/exports/{token}")).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        if r.body["state"] == "ready" || r.body["state"] == "failed" {
            return r.body;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the export did not finish");
}

fn string(cell: &Value) -> &str {
    cell["userEnteredValue"]["stringValue"].as_str().unwrap_or_else(|| panic!("not text: {cell}"))
}

fn number(cell: &Value) -> f64 {
    cell["userEnteredValue"]["numberValue"].as_f64().unwrap_or_else(|| panic!("not a number: {cell}"))
}

fn sheet<'a>(book: &'a Book, title: &str) -> &'a Grid {
    book.sheets.values().find(|g| g.title == title).unwrap_or_else(|| panic!("no sheet {title}"))
}

#[tokio::test]
async fn the_administrator_sets_a_sealed_key_and_checks_it() {
    each(|app| async move {
        let (fake, base) = fake_google().await;
        seeded(&app).await;
        let path = "/api/v1/admin/integrations/google-sheets";
        let none = app.get(path).await;
        assert_eq!((none.status, &none.body["configured"]), (200, &json!(false)));
        assert_eq!(app.get("/api/v1/exports/capabilities").await.body, json!({"sheets": false}));

        // Input that is not a service account's key is refused and changes nothing.
        for (bad, why) in [
            ("not json", "not JSON"),
            (r#"{"type": "authorized_user"}"#, "lacks"),
            (&key_file(&base, "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n").replace("service_account", "user"), "type"),
            (&key_file(&base, "not a pem"), "private_key"),
        ] {
            let r = app.send_json("PUT", path, json!({"key": bad})).await;
            assert_eq!((r.status, r.body["error"]["code"].as_str()), (422, Some("invalid_key")), "{bad}: {:?}", r.body);
            assert!(r.body["error"]["message"].as_str().unwrap().contains(why), "{:?}", r.body);
        }
        let r = app.send_json("PUT", path, json!({"key": key_file(&base, &key_pair().0), "apiBase": "ftp://x"})).await;
        assert_eq!(r.body["error"]["code"], "invalid_base_url");
        assert_eq!(app.get(path).await.body["configured"], false);

        // A viewer of nothing, signed in, may not read or change it.
        let hash = app.create_tracker("tea").await["hash"].as_str().unwrap().to_string();
        let (other, token) = app.member_browser(&hash, "member@example.org", Permission::Editor).await;
        let r = other.get(app.url(path)).send().await.unwrap();
        assert_eq!(r.status(), 403);
        let r = other.put(app.url(path)).header("X-CSRF-Token", &token).json(&json!({"key": key_file(&base, &key_pair().0)})).send().await.unwrap();
        assert_eq!(r.status(), 403);

        let r = app.send_json("PUT", path, json!({"key": key_file(&base, &key_pair().0), "apiBase": format!("{base}/")})).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        assert_eq!(r.body["configured"], true);
        assert_eq!(r.body["clientEmail"], EMAIL);
        assert_eq!(r.body["projectId"], "example-project");
        assert_eq!(r.body["apiBase"], base.as_str());
        assert_eq!(r.body["check"]["state"], "unchecked");
        assert!(!r.body.to_string().contains("PRIVATE KEY"), "the key is never sent back");
        // Stored sealed: the database holds no part of the private key.
        let row = app.store.integration("google_sheets").await.unwrap().unwrap();
        let sealed = row.sealed.unwrap();
        assert!(!sealed.contains("PRIVATE") && !row.public.contains("PRIVATE"));
        let pem_line = key_pair().0.lines().nth(1).unwrap();
        assert!(!sealed.contains(pem_line));
        assert_eq!(app.get("/api/v1/exports/capabilities").await.body, json!({"sheets": true}));

        let checked = app.post(&format!("{path}/check"), json!({})).await;
        assert_eq!(checked.status, 200, "{:?}", checked.body);
        assert_eq!(checked.body["check"]["state"], "ok", "{:?}", checked.body);
        assert_eq!(fake.lock().unwrap().grants.len(), 1);
        assert_eq!(fake.lock().unwrap().grants[0]["iss"], EMAIL);

        // Changing only the base URL keeps the key; a key Google does not know fails the check.
        let r = app.send_json("PUT", path, json!({"apiBase": null})).await;
        assert_eq!((r.status, r.body["configured"].clone(), r.body["apiBase"].clone()), (200, json!(true), Value::Null));
        let stranger = {
            use rsa::pkcs8::{EncodePrivateKey, LineEnding};
            rsa::RsaPrivateKey::new(&mut rand::thread_rng(), 2048).unwrap().to_pkcs8_pem(LineEnding::LF).unwrap().to_string()
        };
        app.send_json("PUT", path, json!({"key": key_file(&base, &stranger), "apiBase": base})).await;
        let checked = app.post(&format!("{path}/check"), json!({})).await;
        assert_eq!(checked.body["check"]["state"], "failed");
        let message = checked.body["check"]["message"].as_str().unwrap();
        assert!(message.contains("Invalid JWT Signature"), "Google's own words reach the page: {message}");

        assert_eq!(app.delete(path).await.status, 204);
        assert_eq!(app.get(path).await.body["configured"], false);
    })
    .await;
}

async fn configure(app: &TestApp, base: &str) {
    let r = app
        .send_json("PUT", "/api/v1/admin/integrations/google-sheets", json!({"key": key_file(base, &key_pair().0), "apiBase": base}))
        .await;
    assert_eq!(r.status, 200, "{:?}", r.body);
}

#[tokio::test]
async fn the_dashboard_spreadsheet_holds_every_panel_and_every_post_and_is_shared() {
    each(|app| async move {
        let (fake, base) = fake_google().await;
        let hash = seeded(&app).await;
        let q = "days=all&tz=America/New_York";
        let r = app.post(&format!("/api/v1/trackers/{hash}/exports?{q}"), json!({"kind": "sheets", "source": "dashboard"})).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (409, Some("sheets_not_configured")), "{:?}", r.body);
        configure(&app, &base).await;
        let r = app.post(&format!("/api/v1/trackers/{hash}/exports?{q}"), json!({"kind": "sheets", "source": "dashboard"})).await;
        assert_eq!(r.status, 202, "{:?}", r.body);
        assert_eq!(r.body["kind"], "sheets");
        let done = finished(&app, r.body["token"].as_str().unwrap()).await;
        assert_eq!(done["state"], "ready", "{done:?}");
        assert_eq!(done["fileUrl"], format!("{base}/spreadsheets/d/sheet1/edit"));

        let f = fake.lock().unwrap();
        assert_eq!(f.grants.len(), 1);
        let book = &f.books["sheet1"];
        let tracker_title = app.get(&format!("/api/v1/trackers/{hash}")).await.body["title"].as_str().unwrap().to_string();
        assert!(book.title.starts_with(&format!("{tracker_title} (")), "named after the tracker and its range: {}", book.title);
        assert_eq!(book.time_zone, "America/New_York");
        let mut titles: Vec<(u64, &str)> = book.sheets.iter().map(|(id, g)| (*id, g.title.as_str())).collect();
        titles.sort();
        let titles: Vec<&str> = titles.into_iter().map(|(_, t)| t).collect();
        assert_eq!(
            titles,
            [
                "Key statistics", "Timeline", "Top posts", "Influencers", "Topics", "Sentiment", "Locations", "Gender",
                "Devices", "Links", "Post types", "Share of voice", "Posts"
            ]
        );
        assert_eq!(book.charts, 1, "the timeline's chart");

        // Key statistics as the dashboard counts them.
        let stats = app.get(&format!("/api/v1/trackers/{hash}/dashboard/top-stats?{q}")).await.body;
        let ks = sheet(book, "Key statistics");
        let value = |label: &str| {
            let row = ks.cells.iter().find(|r| r.first().and_then(|c| c["userEnteredValue"]["stringValue"].as_str()) == Some(label)).unwrap();
            number(&row[1])
        };
        assert_eq!(value("Posts"), stats["posts"].as_f64().unwrap());
        assert_eq!(value("Engagement"), stats["engagement"].as_f64().unwrap());
        assert_eq!(string(&ks.cells[0][0]), app.get(&format!("/api/v1/trackers/{hash}")).await.body["title"].as_str().unwrap());

        // The timeline: bucket starts as dates of the New York wall clock.
        let timeline = app.get(&format!("/api/v1/trackers/{hash}/dashboard/timeline?{q}")).await.body;
        let tl = sheet(book, "Timeline");
        let buckets = timeline["buckets"].as_array().unwrap();
        assert_eq!(tl.cells.len(), buckets.len() + 1);
        let ny = jiff::tz::TimeZone::get("America/New_York").unwrap();
        for (i, b) in buckets.iter().enumerate() {
            let cell = &tl.cells[i + 1][0];
            assert_eq!(cell["userEnteredFormat"]["numberFormat"]["type"], "DATE_TIME");
            let t = b["t"].as_i64().unwrap();
            let offset = ny.to_offset(jiff::Timestamp::from_millisecond(t).unwrap()).seconds() as i64 * 1000;
            assert!((number(cell) - ((t + offset) as f64 / DAY as f64 + 25_569.0)).abs() < 1e-6);
            assert_eq!(number(&tl.cells[i + 1][1]), b["posts"].as_f64().unwrap());
        }

        // Every post, newest first, as the posts API lists them; a formula-like text stays text.
        let posts = app.get(&format!("/api/v1/trackers/{hash}/posts?{q}&perPage=100")).await.body;
        let list = posts["posts"].as_array().unwrap();
        let ps = sheet(book, "Posts");
        assert_eq!(ps.cells.len(), list.len() + 1);
        assert_eq!(string(&ps.cells[0][0]), "Date (America/New_York)");
        assert_eq!(ps.cells[0][0]["userEnteredFormat"]["textFormat"]["bold"], true);
        for (i, p) in list.iter().enumerate() {
            let row = &ps.cells[i + 1];
            assert_eq!(string(&row[5]), p["post"]["text"].as_str().unwrap(), "row {i}");
            assert_eq!(string(&row[3]), p["post"]["author"]["username"].as_str().unwrap());
            assert_eq!(number(&row[8]), p["post"]["counts"]["likes"].as_f64().unwrap());
        }
        assert!(ps.cells.iter().any(|r| r.get(5).and_then(|c| c["userEnteredValue"]["stringValue"].as_str()) == Some("=HYPERLINK(\"http://x\") coffee")));
        assert!(!ps.cells.iter().flatten().any(|c| c["userEnteredValue"].get("formulaValue").is_some()));

        // Shared with the administrator who asked, as a writer, without a notification mail.
        assert_eq!(f.permissions, vec![("sheet1".to_string(), json!({"type": "user", "role": "writer", "emailAddress": "admin@example.org"}))]);
    })
    .await;
}

#[tokio::test]
async fn the_posts_page_spreadsheet_is_the_list_as_searched_and_google_refusals_fail_the_job() {
    each(|app| async move {
        let (fake, base) = fake_google().await;
        let hash = seeded(&app).await;
        configure(&app, &base).await;
        let r = app.post(&format!("/api/v1/trackers/{hash}/exports?days=all&search=love"), json!({"kind": "sheets", "source": "posts"})).await;
        assert_eq!(r.status, 202, "{:?}", r.body);
        let done = finished(&app, r.body["token"].as_str().unwrap()).await;
        assert_eq!(done["state"], "ready", "{done:?}");
        {
            let f = fake.lock().unwrap();
            let book = &f.books["sheet1"];
            assert_eq!(book.sheets.len(), 1, "the posts page's spreadsheet is its list");
            let ps = sheet(book, "Posts");
            assert_eq!(ps.cells.len(), 2);
            assert_eq!(string(&ps.cells[1][5]), "love this coffee");
        }

        // Google refuses the writes: the job fails with its words.
        fake.lock().unwrap().refuse_writes = Some((403, "The caller does not have permission".into()));
        let r = app.post(&format!("/api/v1/trackers/{hash}/exports?days=all"), json!({"kind": "sheets", "source": "posts"})).await;
        let done = finished(&app, r.body["token"].as_str().unwrap()).await;
        assert_eq!(done["state"], "failed");
        assert!(done["error"].as_str().unwrap().contains("The caller does not have permission"), "{done:?}");

        // On plan 15 the XLS is an upgrade; the spreadsheet, like the PDF, is not.
        fake.lock().unwrap().refuse_writes = None;
        let admin = app.store.user_by_email("admin@example.org").await.unwrap().unwrap();
        let plan = hark_store::AccountPlan { plan: 15, trial: false, trial_expires: None, max_searches: 5, max_ignored: 5, is_admin: false };
        app.store.set_account_plan(admin.id, &plan, None).await.unwrap();
        let r = app.post(&format!("/api/v1/trackers/{hash}/exports?days=all"), json!({"kind": "xlsx", "source": "posts"})).await;
        assert_eq!((r.status, r.body["error"]["code"].as_str()), (403, Some("upgrade_required")), "{:?}", r.body);
        let r = app.post(&format!("/api/v1/trackers/{hash}/exports?days=all"), json!({"kind": "sheets", "source": "posts"})).await;
        assert_eq!(r.status, 202, "{:?}", r.body);
        assert_eq!(finished(&app, r.body["token"].as_str().unwrap()).await["state"], "ready");
    })
    .await;
}

#[tokio::test]
async fn the_timeline_downloads_as_csv_for_those_who_may_export() {
    each(|app| async move {
        let hash = seeded(&app).await;
        let q = "days=all&grouping=day";
        let r = app.client.get(app.url(&format!("/api/v1/trackers/{hash}/dashboard/timeline?{q}&format=csv"))).send().await.unwrap();
        assert_eq!(r.status(), 200);
        let disposition = r.headers()["content-disposition"].to_str().unwrap().to_string();
        assert!(disposition.contains("-timeline-day.csv"), "{disposition}");
        let body = r.text().await.unwrap();
        let body = body.strip_prefix('\u{feff}').expect("a BOM");
        let mut rows = csv::Reader::from_reader(body.as_bytes());
        assert_eq!(rows.headers().unwrap(), vec!["Start", "Posts", "Engagement", "Reach", "Impressions"]);
        let records: Vec<csv::StringRecord> = rows.records().map(Result::unwrap).collect();
        let timeline = app.get(&format!("/api/v1/trackers/{hash}/dashboard/timeline?{q}")).await.body;
        let buckets = timeline["buckets"].as_array().unwrap();
        assert_eq!(records.len(), buckets.len());
        for (rec, b) in records.iter().zip(buckets) {
            let start: jiff::Timestamp = rec[0].parse().unwrap();
            assert_eq!(start.as_millisecond(), b["t"].as_i64().unwrap());
            assert_eq!(rec[1].parse::<i64>().unwrap(), b["posts"].as_i64().unwrap());
        }
        let sum: i64 = records.iter().map(|r| r[1].parse::<i64>().unwrap()).sum();
        assert_eq!(sum, 30);
        let r = app.get(&format!("/api/v1/trackers/{hash}/dashboard/timeline?{q}&format=xml")).await;
        assert_eq!(r.body["error"]["code"], "invalid_choice");
        // A viewer of a tracker that does not share exports reads the timeline, not its CSV.
        let (viewer, _) = app.member_browser(&hash, "viewer@example.org", Permission::Viewer).await;
        let path = app.url(&format!("/api/v1/trackers/{hash}/dashboard/timeline?{q}"));
        assert_eq!(viewer.get(&path).send().await.unwrap().status(), 200);
        assert_eq!(viewer.get(format!("{path}&format=csv")).send().await.unwrap().status(), 403);
    })
    .await;
}
