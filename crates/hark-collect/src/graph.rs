//! What the Instagram and Facebook connectors share: GET on the Meta Graph API with an access
//! token, and its error object `{error: {message, type, code, error_subcode, fbtrace_id}}`
//! mapped to [`CollectError`] — code 190 (expired or invalid token) and permission errors to
//! `Auth`, the throttling codes 4, 17, 32 and 613 to `RateLimited`.

use std::time::Duration;

use hark_core::Millis;
use serde_json::Value;

use crate::{short, CollectError, ConnectorConfig, ConnectorKind, Http};

pub const DEFAULT_VERSION: &str = "v21.0";
/// How long to stay away after a throttling error without a usage header saying otherwise.
pub const THROTTLE_WAIT: Duration = Duration::from_secs(900);

pub fn version(config: &ConnectorConfig) -> String {
    config.value("api_version").unwrap_or(DEFAULT_VERSION).trim_matches('/').to_string()
}

/// GETs `{base}/{version}/{path}` with the access token.
pub async fn get(http: &Http, config: &ConnectorConfig, kind: ConnectorKind, path: &str, params: &[(&str, String)]) -> Result<Value, CollectError> {
    let url = format!("{}/{}/{}", config.base(kind), version(config), path.trim_start_matches('/'));
    let token = config.value("access_token").unwrap_or_default().to_string();
    get_url(http, &url, params, &token).await
}

/// GETs a full URL (a `paging.next` link carries its own parameters).
pub async fn get_url(http: &Http, url: &str, params: &[(&str, String)], token: &str) -> Result<Value, CollectError> {
    let resp = http.send(|c| c.get(url).query(params).query(&[("access_token", token)])).await?;
    let status = resp.status();
    let body: Value = resp.json().await.map_err(|e| CollectError::Payload(e.to_string()))?;
    match body.get("error") {
        None if status.is_success() => Ok(body),
        err => Err(graph_error(status.as_u16(), err.unwrap_or(&Value::Null))),
    }
}

pub fn graph_error(status: u16, err: &Value) -> CollectError {
    let code = err.get("code").and_then(Value::as_i64).unwrap_or(0);
    let message = err.get("message").and_then(Value::as_str).map(short).unwrap_or_else(|| format!("HTTP {status}"));
    match code {
        190 | 102 | 10 | 200..=299 => CollectError::Auth(message),
        4 | 17 | 32 | 613 => CollectError::RateLimited { wait: THROTTLE_WAIT },
        _ => CollectError::Http { status, message },
    }
}

/// Graph times: `2024-01-02T03:04:05+0000` (offset without a colon) or RFC 3339.
pub fn parse_time(s: &str) -> Option<Millis> {
    crate::util::parse_rfc3339(s).or_else(|| {
        jiff::fmt::strtime::parse("%Y-%m-%dT%H:%M:%S%z", s.trim())
            .ok()
            .and_then(|t| t.to_timestamp().ok())
            .map(|t| t.as_millisecond())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_and_errors() {
        assert_eq!(parse_time("2024-01-02T03:04:05+0000"), Some(1_704_164_645_000));
        assert_eq!(parse_time("2024-01-02T03:04:05Z"), Some(1_704_164_645_000));
        let e = serde_json::json!({"message": "Error validating access token: Session has expired", "type": "OAuthException", "code": 190, "error_subcode": 463, "fbtrace_id": "A"});
        assert!(matches!(graph_error(400, &e), CollectError::Auth(m) if m.contains("expired")));
        let t = serde_json::json!({"message": "(#4) Application request limit reached", "type": "OAuthException", "code": 4});
        assert!(matches!(graph_error(400, &t), CollectError::RateLimited { .. }));
        let other = serde_json::json!({"message": "Unsupported get request.", "type": "GraphMethodException", "code": 100});
        assert!(matches!(graph_error(400, &other), CollectError::Http { status: 400, .. }));
    }
}
