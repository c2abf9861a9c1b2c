//! The Google Sheets export: a spreadsheet made through the Sheets API v4 with the service account
//! an instance administrator set up (its JSON key, sealed at rest). The server signs a JWT with the
//! account's key and trades it for an access token (the OAuth 2.0 JWT bearer grant), creates the
//! spreadsheet with a sheet per dashboard panel and a posts sheet, writes typed cells with
//! `spreadsheets.batchUpdate` (text as text, never a formula; numbers as numbers; moments as
//! dates in the viewer's time zone), adds the timeline's chart, and shares the file with the
//! person who asked (or, for a share-link visitor, with anyone holding its link) through the
//! Drive API. The base URL of both APIs can be set for a proxy, or a test's fake server.

use std::time::Duration;

use hark_core::{Code, Millis};
use hark_store::TrackerRow;
use jiff::tz::TimeZone;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::book::{self, Block, Sheet};
use super::{ExportParams, ExportSource, ExportView, PostCells, Progress};
use crate::error::{ApiError, ApiResult};
use crate::routes::posts::Cell;
use crate::AppState;

/// The integration's name in the settings (and the sealed key's associated data).
pub const INTEGRATION: &str = "google_sheets";
/// What the token is asked for: the spreadsheets, and the files the service account made (to
/// share them).
pub const SCOPE: &str = "https://www.googleapis.com/auth/spreadsheets https://www.googleapis.com/auth/drive.file";
const SHEETS_API: &str = "https://sheets.googleapis.com";
const DRIVE_API: &str = "https://www.googleapis.com";
const GRANT_TYPE: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/// Posts in the spreadsheet at most: Google's limit is ten million cells a spreadsheet.
pub const POSTS_MAX: i64 = 100_000;
/// Post rows written by one call, which keeps a request near Google's advised 2 MB.
const ROWS_PER_CALL: usize = 2_000;
/// Google's longest text in a cell.
const MAX_TEXT: usize = 50_000;
/// Tries of one call that Google answered with 429 or a 5xx.
const TRIES: u32 = 5;

/// The fields of a service account's JSON key file that the export uses.
#[derive(Debug, Clone, Deserialize)]
pub struct ServiceAccountKey {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub project_id: Option<String>,
    #[serde(default)]
    pub private_key_id: Option<String>,
    pub private_key: String,
    pub client_email: String,
    #[serde(default = "default_token_uri")]
    pub token_uri: String,
}

fn default_token_uri() -> String {
    "https://oauth2.googleapis.com/token".into()
}

fn invalid(message: impl Into<String>) -> ApiError {
    ApiError::new(Code::InvalidKey, message)
}

impl ServiceAccountKey {
    /// The key in a JSON key file's text, with its signing key; what is wrong otherwise.
    pub fn parse(text: &str) -> ApiResult<(Self, EncodingKey)> {
        let value: Value =
            serde_json::from_str(text).map_err(|_| invalid("The key is not JSON: upload the service account's JSON key file."))?;
        let key: Self = serde_json::from_value(value)
            .map_err(|e| invalid(format!("The key lacks what a service account's JSON key holds: {e}.")))?;
        if key.kind != "service_account" {
            return Err(invalid(format!("The key's type is '{}', not 'service_account'.", key.kind)));
        }
        if !key.client_email.contains('@') {
            return Err(invalid("The key's client_email is not an e-mail address."));
        }
        match url::Url::parse(&key.token_uri) {
            Ok(u) if matches!(u.scheme(), "http" | "https") => {}
            _ => return Err(invalid("The key's token_uri is not an http(s) URL.")),
        }
        let signer = EncodingKey::from_rsa_pem(key.private_key.as_bytes())
            .map_err(|_| invalid("The key's private_key is not an RSA private key in PEM form."))?;
        Ok((key, signer))
    }
}

/// What the settings show of the integration (never the key).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SheetsPublic {
    pub client_email: String,
    #[serde(default)]
    pub project_id: Option<String>,
    /// Where the Sheets and Drive APIs are called; Google's own when unset.
    #[serde(default)]
    pub api_base: Option<String>,
}

/// A base URL an administrator may set: http(s), no query or fragment; stored without a trailing
/// slash.
pub fn api_base(raw: Option<&str>) -> ApiResult<Option<String>> {
    let Some(raw) = raw.map(str::trim).filter(|s| !s.is_empty()) else { return Ok(None) };
    let bad = || ApiError::new(Code::InvalidBaseUrl, "The API base URL must be an http(s) URL without a query.");
    let u = url::Url::parse(raw).map_err(|_| bad())?;
    if !matches!(u.scheme(), "http" | "https") || u.query().is_some() || u.fragment().is_some() || u.host_str().is_none() {
        return Err(bad());
    }
    Ok(Some(raw.trim_end_matches('/').to_string()))
}

/// The configured service account, opened with the server's secret key; none when none is set.
pub async fn configured(state: &AppState) -> ApiResult<Option<(ServiceAccountKey, EncodingKey, SheetsPublic)>> {
    let Some(row) = state.store.integration(INTEGRATION).await? else { return Ok(None) };
    let Some(sealed) = row.sealed else { return Ok(None) };
    let public: SheetsPublic = serde_json::from_str(&row.public).unwrap_or_default();
    let plain = state.secret_key.open(INTEGRATION, &sealed).map_err(|_| {
        ApiError::new(
            Code::SheetsNotConfigured,
            "The stored Google Sheets key cannot be read with this server's secret key; an administrator must upload it again.",
        )
    })?;
    let text = String::from_utf8(plain).map_err(|_| ApiError::Internal("the sealed key is not text".into()))?;
    let (key, signer) = ServiceAccountKey::parse(&text)?;
    Ok(Some((key, signer, public)))
}

/// A failed call to Google: its own message when it gave one.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct GoogleError(pub String);

impl From<GoogleError> for ApiError {
    fn from(e: GoogleError) -> Self {
        ApiError::new(Code::Conflict, format!("Google Sheets: {}", e.0))
    }
}

/// A signed-in client of the Sheets and Drive APIs.
pub struct Google {
    http: reqwest::Client,
    token: String,
    sheets_api: String,
    drive_api: String,
}

fn transport(e: reqwest::Error) -> GoogleError {
    GoogleError(format!("the request failed ({})", e.without_url()))
}

/// Google's message in an error answer: `{"error": {"message"}}` from the APIs, or
/// `{"error", "error_description"}` from the token endpoint.
fn message_of(status: reqwest::StatusCode, body: &str) -> String {
    let v: Value = serde_json::from_str(body).unwrap_or(Value::Null);
    let m = v["error"]["message"]
        .as_str()
        .or_else(|| v["error_description"].as_str())
        .or_else(|| v["error"].as_str())
        .map(str::to_string);
    match m {
        Some(m) => format!("{m} (HTTP {})", status.as_u16()),
        None => format!("HTTP {}", status.as_u16()),
    }
}

impl Google {
    /// Trades a JWT signed by the service account for an access token.
    pub async fn connect(key: &ServiceAccountKey, signer: &EncodingKey, api_base: Option<&str>) -> Result<Self, GoogleError> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(60))
            .connect_timeout(Duration::from_secs(10))
            .build()
            .map_err(transport)?;
        let now = jiff::Timestamp::now().as_second();
        let claims = json!({ "iss": key.client_email, "scope": SCOPE, "aud": key.token_uri, "iat": now, "exp": now + 3600 });
        let mut header = Header::new(Algorithm::RS256);
        header.kid = key.private_key_id.clone();
        let jwt = jsonwebtoken::encode(&header, &claims, signer).map_err(|e| GoogleError(format!("the key cannot sign: {e}")))?;
        let resp = http.post(&key.token_uri).form(&[("grant_type", GRANT_TYPE), ("assertion", jwt.as_str())]).send().await.map_err(transport)?;
        let status = resp.status();
        let body = resp.text().await.map_err(transport)?;
        if !status.is_success() {
            return Err(GoogleError(format!("Google refused the service account: {}", message_of(status, &body))));
        }
        let token = serde_json::from_str::<Value>(&body)
            .ok()
            .and_then(|v| v["access_token"].as_str().map(str::to_string))
            .ok_or_else(|| GoogleError("the token answer holds no access_token".into()))?;
        let (sheets_api, drive_api) = match api_base {
            Some(b) => (b.to_string(), b.to_string()),
            None => (SHEETS_API.to_string(), DRIVE_API.to_string()),
        };
        Ok(Self { http, token, sheets_api, drive_api })
    }

    /// One POST, tried again after a pause when Google says it is too many or failed itself.
    async fn post(&self, url: &str, body: &Value) -> Result<Value, GoogleError> {
        let mut pause = Duration::from_secs(1);
        for attempt in 1..=TRIES {
            let resp = self.http.post(url).bearer_auth(&self.token).json(body).send().await.map_err(transport)?;
            let status = resp.status();
            let retry_after = resp
                .headers()
                .get(reqwest::header::RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse::<u64>().ok())
                .map(|s| Duration::from_secs(s.min(30)));
            let text = resp.text().await.map_err(transport)?;
            if status.is_success() {
                return serde_json::from_str(&text).map_err(|_| GoogleError("the answer is not JSON".into()));
            }
            let again = status == reqwest::StatusCode::TOO_MANY_REQUESTS || status.is_server_error();
            if !again || attempt == TRIES {
                return Err(GoogleError(message_of(status, &text)));
            }
            tokio::time::sleep(retry_after.unwrap_or(pause)).await;
            pause *= 2;
        }
        unreachable!("the last try returns")
    }

    /// Creates a spreadsheet: its id and the URL it opens at.
    pub async fn create(&self, body: &Value) -> Result<(String, String), GoogleError> {
        let v = self.post(&format!("{}/v4/spreadsheets", self.sheets_api), body).await?;
        match (v["spreadsheetId"].as_str(), v["spreadsheetUrl"].as_str()) {
            (Some(id), Some(url)) => Ok((id.to_string(), url.to_string())),
            _ => Err(GoogleError("the new spreadsheet's answer lacks its id or URL".into())),
        }
    }

    pub async fn batch_update(&self, id: &str, requests: Vec<Value>) -> Result<(), GoogleError> {
        if requests.is_empty() {
            return Ok(());
        }
        let id = url::form_urlencoded::byte_serialize(id.as_bytes()).collect::<String>();
        self.post(&format!("{}/v4/spreadsheets/{id}:batchUpdate", self.sheets_api), &json!({ "requests": requests })).await?;
        Ok(())
    }

    /// Gives `permission` on the file (Drive API v3).
    pub async fn share(&self, id: &str, permission: &Value) -> Result<(), GoogleError> {
        let id = url::form_urlencoded::byte_serialize(id.as_bytes()).collect::<String>();
        let notify = if permission["type"] == "user" { "?sendNotificationEmail=false" } else { "" };
        self.post(&format!("{}/drive/v3/files/{id}/permissions{notify}", self.drive_api), permission).await?;
        Ok(())
    }
}

/// Checks the configured account: a token is granted. Its message otherwise.
pub async fn check(state: &AppState) -> ApiResult<Result<(), String>> {
    let Some((key, signer, public)) = configured(state).await? else {
        return Err(ApiError::new(Code::SheetsNotConfigured, "Google Sheets is not set up on this server."));
    };
    Ok(Google::connect(&key, &signer, public.api_base.as_deref()).await.map(|_| ()).map_err(|e| e.0))
}

fn clip(s: &str) -> &str {
    book::clip(s, MAX_TEXT)
}

/// A moment as a spreadsheet's serial date (days since 1899-12-30) of the viewer's wall clock.
fn serial(ms: Millis, tz: &TimeZone) -> Option<f64> {
    let t = jiff::Timestamp::from_millisecond(ms).ok()?;
    let local = ms as f64 / 1000.0 + tz.to_offset(t).seconds() as f64;
    Some(local / 86_400.0 + 25_569.0)
}

/// One typed cell: text stays text (a string value is never read as a formula).
fn cell(c: &Cell, tz: &TimeZone) -> Value {
    match c {
        Cell::Text(s) if !s.is_empty() => json!({ "userEnteredValue": { "stringValue": clip(s) } }),
        Cell::Int(n) => json!({ "userEnteredValue": { "numberValue": n } }),
        Cell::Float(x) if x.is_finite() => json!({
            "userEnteredValue": { "numberValue": x },
            "userEnteredFormat": { "numberFormat": { "type": "NUMBER", "pattern": "0.0" } }
        }),
        Cell::Time(ms) => match serial(*ms, tz) {
            Some(d) => json!({
                "userEnteredValue": { "numberValue": d },
                "userEnteredFormat": { "numberFormat": { "type": "DATE_TIME", "pattern": "yyyy-mm-dd hh:mm" } }
            }),
            None => json!({}),
        },
        _ => json!({}),
    }
}

fn bold(s: &str, size: Option<u32>) -> Value {
    let mut text = json!({ "bold": true });
    if let Some(n) = size {
        text["fontSize"] = json!(n);
    }
    json!({ "userEnteredValue": { "stringValue": clip(s) }, "userEnteredFormat": { "textFormat": text } })
}

fn row_of(cells: Vec<Value>) -> Value {
    json!({ "values": cells })
}

const FIELDS: &str = "userEnteredValue,userEnteredFormat";

/// The requests writing one block at its place.
fn block_requests(sheet_id: u32, b: &Block, tz: &TimeZone) -> Vec<Value> {
    let mut rows = Vec::new();
    if let Some(t) = &b.title {
        rows.push(row_of(vec![bold(t, Some(14))]));
    }
    if !b.header.is_empty() {
        rows.push(row_of(b.header.iter().map(|h| bold(h, None)).collect()));
    }
    for r in &b.rows {
        rows.push(row_of(
            r.iter().enumerate().map(|(i, c)| match c {
                Cell::Text(s) if b.labels && i == 0 => bold(s, None),
                _ => cell(c, tz),
            }).collect(),
        ));
    }
    if rows.is_empty() {
        return Vec::new();
    }
    vec![json!({ "updateCells": {
        "start": { "sheetId": sheet_id, "rowIndex": b.row, "columnIndex": b.col },
        "rows": rows,
        "fields": FIELDS,
    }})]
}

/// A line chart of a sheet's first block (its second column over its first), right of it.
fn chart_request(sheet_id: u32, s: &Sheet) -> Option<Value> {
    let (title, b) = (s.chart.as_ref()?, s.blocks.first()?);
    if b.rows.is_empty() {
        return None;
    }
    let range = |col: u16| {
        json!({ "sourceRange": { "sources": [{
            "sheetId": sheet_id,
            "startRowIndex": b.row,
            "endRowIndex": b.row + 1 + b.rows.len() as u32,
            "startColumnIndex": col,
            "endColumnIndex": col + 1,
        }]}})
    };
    Some(json!({ "addChart": { "chart": {
        "spec": {
            "title": title,
            "basicChart": {
                "chartType": "LINE",
                "legendPosition": "NO_LEGEND",
                "headerCount": 1,
                "domains": [{ "domain": range(b.col) }],
                "series": [{ "series": range(b.col + 1), "targetAxis": "LEFT_AXIS" }],
            }
        },
        "position": { "overlayPosition": { "anchorCell": { "sheetId": sheet_id, "rowIndex": 1, "columnIndex": b.col + b.width() + 1 } } }
    }}}))
}

fn sheet_properties(id: u32, title: &str, rows: u32, cols: u16, frozen: u32) -> Value {
    json!({ "properties": {
        "sheetId": id,
        "title": title,
        "index": id,
        "gridProperties": { "rowCount": rows.max(1), "columnCount": cols.max(1), "frozenRowCount": frozen },
    }})
}

/// Makes the spreadsheet of a job's view and shares it; the URL it opens at.
pub async fn spreadsheet(
    state: &AppState,
    row: &TrackerRow,
    params: &ExportParams,
    view: &ExportView,
    user_id: Option<i64>,
    progress: &mut Progress<'_>,
) -> ApiResult<String> {
    let Some((key, signer, public)) = configured(state).await? else {
        return Err(ApiError::new(Code::SheetsNotConfigured, "Google Sheets is not set up on this server."));
    };
    let tz = &view.tz;
    let mut posts = PostCells::open(state, row, params, view, POSTS_MAX).await?;
    progress.total = posts.expected + 12;
    progress.report(0, true).await?;
    let google = Google::connect(&key, &signer, public.api_base.as_deref()).await?;
    let panels = match params.source {
        ExportSource::Dashboard => {
            let p = super::xlsx::panels(state, row, params, view).await?;
            book::panel_sheets(&row.title, &view.filter, tz, &p)
        }
        ExportSource::Posts => Vec::new(),
    };
    let posts_id = panels.len() as u32;
    let mut sheets: Vec<Value> = panels
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let (rows, cols) = s.size();
            sheet_properties(i as u32, s.name, rows, cols.max(if s.chart.is_some() { 16 } else { 0 }), s.frozen_rows)
        })
        .collect();
    let header = book::posts_header(tz);
    sheets.push(sheet_properties(posts_id, "Posts", 1, header.len() as u16, 1));
    let title = format!("{} ({})", row.title, book::range_label(&view.filter, tz));
    let (id, url) = google
        .create(&json!({
            "properties": { "title": title, "timeZone": tz.iana_name().unwrap_or("UTC") },
            "sheets": sheets,
        }))
        .await?;
    let mut requests: Vec<Value> = Vec::new();
    for (i, s) in panels.iter().enumerate() {
        for b in &s.blocks {
            requests.extend(block_requests(i as u32, b, tz));
        }
        requests.extend(chart_request(i as u32, s));
    }
    requests.push(json!({ "updateCells": {
        "start": { "sheetId": posts_id, "rowIndex": 0, "columnIndex": 0 },
        "rows": [row_of(header.iter().map(|h| bold(h, None)).collect())],
        "fields": FIELDS,
    }}));
    for (c, px) in [130, 80, 150, 130, 170, 420, 280, 80, 60, 70, 60, 70, 80, 80, 80, 90, 90, 60, 140].iter().enumerate() {
        requests.push(json!({ "updateDimensionProperties": {
            "range": { "sheetId": posts_id, "dimension": "COLUMNS", "startIndex": c, "endIndex": c + 1 },
            "properties": { "pixelSize": px },
            "fields": "pixelSize",
        }}));
    }
    google.batch_update(&id, requests).await?;
    progress.report(12, true).await?;
    let mut written = 0i64;
    let mut pending: Vec<Value> = Vec::with_capacity(ROWS_PER_CALL);
    let append = |rows: Vec<Value>| json!({ "appendCells": { "sheetId": posts_id, "rows": rows, "fields": FIELDS } });
    while let Some(batch) = posts.next().await {
        for cells in batch {
            pending.push(row_of(cells.iter().map(|c| cell(c, tz)).collect()));
            if pending.len() == ROWS_PER_CALL {
                written += pending.len() as i64;
                google.batch_update(&id, vec![append(std::mem::take(&mut pending))]).await?;
                progress.report(12 + written, true).await?;
            }
        }
    }
    posts.finish().await?;
    if !pending.is_empty() {
        written += pending.len() as i64;
        google.batch_update(&id, vec![append(pending)]).await?;
    }
    progress.report(12 + written, true).await?;
    // The asker gets the file; a share-link visitor, who has no account, opens it by its link.
    let email = match user_id {
        Some(uid) => state.store.user_by_id(uid).await?.map(|u| u.email),
        None => None,
    };
    let permission = match email {
        Some(e) => json!({ "type": "user", "role": "writer", "emailAddress": e }),
        None => json!({ "type": "anyone", "role": "reader" }),
    };
    google.share(&id, &permission).await?;
    Ok(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_typed_and_dates_are_serials_of_the_wall_clock() {
        let tz = TimeZone::get("America/New_York").unwrap();
        // 2026-01-01 00:00 UTC is 2025-12-31 19:00 in New York.
        let d = serial(1_767_225_600_000, &tz).unwrap();
        assert!((d - (46_022.0 + 19.0 / 24.0)).abs() < 1e-9, "{d}");
        assert_eq!(cell(&Cell::Text("=1+1".into()), &tz), json!({ "userEnteredValue": { "stringValue": "=1+1" } }));
        assert_eq!(cell(&Cell::Int(7), &tz)["userEnteredValue"]["numberValue"], 7);
        assert_eq!(cell(&Cell::Empty, &tz), json!({}));
        assert_eq!(cell(&Cell::Text("".into()), &tz), json!({}));
        let long = "é".repeat(30_000);
        assert!(clip(&long).len() <= MAX_TEXT);
    }

    #[test]
    fn a_key_file_is_checked_before_it_is_kept() {
        let err = |t: &str| match ServiceAccountKey::parse(t) {
            Err(ApiError::Client { code, message }) => (code, message),
            _ => panic!("{t} was taken"),
        };
        assert_eq!(err("nope").0, Code::InvalidKey);
        assert!(err("{}").1.contains("lacks"), "{}", err("{}").1);
        let k = |kind: &str, email: &str, uri: &str, pem: &str| {
            json!({ "type": kind, "client_email": email, "token_uri": uri, "private_key": pem }).to_string()
        };
        assert!(err(&k("authorized_user", "a@b.c", "https://x/token", "x")).1.contains("service_account"));
        assert!(err(&k("service_account", "nobody", "https://x/token", "x")).1.contains("client_email"));
        assert!(err(&k("service_account", "a@b.c", "ftp://x/token", "x")).1.contains("token_uri"));
        assert!(err(&k("service_account", "a@b.c", "https://x/token", "x")).1.contains("private_key"));
        assert_eq!(api_base(Some(" http://127.0.0.1:9/ ")).unwrap().as_deref(), Some("http://127.0.0.1:9"));
        assert_eq!(api_base(Some("")).unwrap(), None);
        assert!(api_base(Some("file:///etc")).is_err());
        assert!(api_base(Some("https://x/?a=1")).is_err());
    }
}
