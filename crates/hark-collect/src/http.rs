//! The HTTP client every connector shares: rustls, a timeout, and one policy for the ways
//! platforms say "slow down" — 429 with `Retry-After` (seconds or an HTTP date), X's
//! `x-rate-limit-reset` (epoch seconds), Reddit's `x-ratelimit-reset` (seconds to wait) — and
//! for passing failures (5xx, connection errors), retried with exponential backoff and jitter.
//! A wait longer than the policy allows is not slept through: it comes back as
//! [`CollectError::RateLimited`] so the scheduler runs the job again when the window opens.
//!
//! A response that says the window is used up (`X-RateLimit-Remaining: 0`, Mastodon and Reddit;
//! `x-rate-limit-remaining: 0`, X) pauses that host until its reset, before any 429.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rand::Rng;
use reqwest::header::HeaderMap;
use reqwest::{RequestBuilder, Response, StatusCode};

use crate::CollectError;

#[derive(Debug, Clone)]
pub struct RetryPolicy {
    /// Retries of a 5xx or connection failure before giving up.
    pub max_retries: u32,
    /// First backoff; doubles each retry, with up to half of it added as jitter.
    pub base_delay: Duration,
    pub max_delay: Duration,
    /// Longest rate-limit wait slept through in place; longer waits are handed to the scheduler.
    pub max_inline_wait: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_retries: 4,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(30),
            max_inline_wait: Duration::from_secs(20),
        }
    }
}

impl RetryPolicy {
    /// Short delays for tests against local fakes.
    pub fn fast() -> Self {
        Self {
            max_retries: 3,
            base_delay: Duration::from_millis(5),
            max_delay: Duration::from_millis(50),
            max_inline_wait: Duration::from_secs(2),
        }
    }

    pub fn backoff(&self, attempt: u32) -> Duration {
        let base = self.base_delay.saturating_mul(1u32 << attempt.min(16)).min(self.max_delay);
        let jitter = rand::thread_rng().gen_range(0..=base.as_millis() as u64 / 2);
        base + Duration::from_millis(jitter)
    }
}

#[derive(Debug, Clone)]
pub struct Http {
    client: reqwest::Client,
    pub policy: RetryPolicy,
    /// Hosts whose rate-limit window is used up, with when it opens again.
    paused: Arc<Mutex<HashMap<String, SystemTime>>>,
}

pub(crate) const USER_AGENT: &str = concat!("Hark/", env!("CARGO_PKG_VERSION"), " (self-hosted social listening)");

impl Http {
    pub fn new(policy: RetryPolicy) -> Self {
        Self::with_builder(policy, reqwest::Client::builder())
    }

    /// For addresses that tracker editors choose (feeds, servers): host names resolving to a
    /// private or local address are refused when connecting (so DNS rebinding cannot reach
    /// them), and so are redirects to such addresses.
    pub fn public_only(policy: RetryPolicy) -> Self {
        Self::with_builder(policy, crate::netguard::public_only(reqwest::Client::builder()))
    }

    fn with_builder(policy: RetryPolicy, builder: reqwest::ClientBuilder) -> Self {
        let client = builder
            .user_agent(USER_AGENT)
            .timeout(Duration::from_secs(30))
            .connect_timeout(Duration::from_secs(10))
            .build()
            .unwrap_or_default();
        Self { client, policy, paused: Arc::default() }
    }

    /// How long `host` is paused for from `now` (its rate-limit window is used up).
    fn pause_of(&self, host: &str, now: SystemTime) -> Option<Duration> {
        let paused = self.paused.lock().unwrap_or_else(|p| p.into_inner());
        paused.get(host).and_then(|until| until.duration_since(now).ok()).filter(|d| !d.is_zero())
    }

    fn note_remaining(&self, host: &str, h: &HeaderMap, now: SystemTime) {
        let remaining = ["x-ratelimit-remaining", "x-rate-limit-remaining"]
            .iter()
            .find_map(|n| h.get(*n).and_then(|v| v.to_str().ok()).and_then(|v| v.trim().parse::<f64>().ok()));
        let mut paused = self.paused.lock().unwrap_or_else(|p| p.into_inner());
        match remaining {
            Some(r) if r < 1.0 => {
                if let Some(wait) = rate_limit_wait(h, now) {
                    paused.insert(host.to_string(), now + wait);
                }
            }
            Some(_) => {
                paused.remove(host);
            }
            None => {}
        }
    }

    pub fn client(&self) -> &reqwest::Client {
        &self.client
    }

    /// Sends the request `build` makes, retrying per the policy. Returns any response that is
    /// not a rate limit or a server error (the caller reads 304 and 4xx bodies itself).
    pub async fn send(&self, build: impl Fn(&reqwest::Client) -> RequestBuilder) -> Result<Response, CollectError> {
        let mut attempt = 0u32;
        loop {
            let req = build(&self.client).build().map_err(|e| CollectError::Payload(format!("request: {e}")))?;
            let host = req.url().host_str().unwrap_or_default().to_string();
            if let Some(wait) = self.pause_of(&host, SystemTime::now()) {
                if wait > self.policy.max_inline_wait {
                    return Err(CollectError::RateLimited { wait });
                }
                tokio::time::sleep(wait).await;
            }
            let outcome = self.client.execute(req).await;
            if let Ok(resp) = &outcome {
                self.note_remaining(&host, resp.headers(), SystemTime::now());
            }
            let wait = match outcome {
                Ok(resp) if resp.status() == StatusCode::TOO_MANY_REQUESTS => {
                    let wait = rate_limit_wait(resp.headers(), SystemTime::now())
                        .unwrap_or_else(|| self.policy.backoff(attempt));
                    if wait > self.policy.max_inline_wait || attempt >= self.policy.max_retries {
                        return Err(CollectError::RateLimited { wait });
                    }
                    wait
                }
                Ok(resp) if resp.status().is_server_error() => {
                    if attempt >= self.policy.max_retries {
                        let status = resp.status().as_u16();
                        let body = resp.text().await.unwrap_or_default();
                        return Err(CollectError::Http { status, message: crate::short(&body) });
                    }
                    // A 503 may say when to come back.
                    rate_limit_wait(resp.headers(), SystemTime::now())
                        .filter(|w| *w <= self.policy.max_inline_wait)
                        .unwrap_or_else(|| self.policy.backoff(attempt))
                }
                Ok(resp) => return Ok(resp),
                Err(e) => {
                    if attempt >= self.policy.max_retries {
                        return Err(CollectError::Network(e.to_string()));
                    }
                    self.policy.backoff(attempt)
                }
            };
            attempt += 1;
            tracing::debug!(attempt, wait_ms = wait.as_millis() as u64, "retrying request");
            tokio::time::sleep(wait).await;
        }
    }
}

/// How long a response asks to wait, from `Retry-After`, `x-rate-limit-reset` (X: epoch
/// seconds) or `x-ratelimit-reset` (Reddit: seconds from now; Mastodon: an ISO 8601 time).
pub fn rate_limit_wait(h: &HeaderMap, now: SystemTime) -> Option<Duration> {
    let text = |name: &str| h.get(name).and_then(|v| v.to_str().ok()).map(str::trim);
    if let Some(v) = text("retry-after") {
        if let Ok(secs) = v.parse::<u64>() {
            return Some(Duration::from_secs(secs));
        }
        if let Ok(at) = httpdate::parse_http_date(v) {
            return Some(at.duration_since(now).unwrap_or_default());
        }
    }
    if let Some(v) = text("x-rate-limit-reset").and_then(|v| v.parse::<u64>().ok()) {
        let now_s = now.duration_since(UNIX_EPOCH).unwrap_or_default().as_secs();
        return Some(Duration::from_secs(v.saturating_sub(now_s)));
    }
    if let Some(v) = text("x-ratelimit-reset") {
        if let Ok(secs) = v.parse::<f64>() {
            return Some(Duration::from_secs_f64(secs.clamp(0.0, 1e9)));
        }
        if let Some(at) = crate::util::parse_rfc3339(v) {
            let now_ms = now.duration_since(UNIX_EPOCH).unwrap_or_default().as_millis() as i64;
            return Some(Duration::from_millis(at.saturating_sub(now_ms).max(0) as u64));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn reads_each_rate_limit_header() {
        let now = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        assert_eq!(rate_limit_wait(&headers(&[("retry-after", "7")]), now), Some(Duration::from_secs(7)));
        let date = httpdate::fmt_http_date(now + Duration::from_secs(30));
        assert_eq!(rate_limit_wait(&headers(&[("retry-after", &date)]), now), Some(Duration::from_secs(30)));
        assert_eq!(
            rate_limit_wait(&headers(&[("x-rate-limit-reset", "1700000090")]), now),
            Some(Duration::from_secs(90))
        );
        assert_eq!(rate_limit_wait(&headers(&[("x-rate-limit-reset", "1600000000")]), now), Some(Duration::ZERO));
        assert_eq!(rate_limit_wait(&headers(&[("x-ratelimit-reset", "12")]), now), Some(Duration::from_secs(12)));
        // Mastodon: the time the window opens again.
        let at = crate::util::rfc3339(1_700_000_045_000);
        assert_eq!(rate_limit_wait(&headers(&[("x-ratelimit-reset", &at)]), now), Some(Duration::from_secs(45)));
        assert_eq!(rate_limit_wait(&headers(&[]), now), None);
    }

    #[test]
    fn backoff_grows_and_is_capped() {
        let p = RetryPolicy { max_delay: Duration::from_secs(4), ..RetryPolicy::default() };
        let first = p.backoff(0);
        assert!(first >= Duration::from_millis(500) && first <= Duration::from_millis(750));
        let third = p.backoff(2);
        assert!(third >= Duration::from_secs(2) && third <= Duration::from_secs(3));
        assert!(p.backoff(30) <= Duration::from_secs(6));
    }
}
