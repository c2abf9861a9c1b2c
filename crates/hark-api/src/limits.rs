//! Rate limits per client address on what can be called without signing in: the first-account
//! setup, invitation and unsubscribe links, share-link changes, and every request that reads
//! through a public key (share link, embed key, moderation link) or carries no session at all.
//! Sign-in has its own limiter ([`crate::auth::LoginLimiter`]). A refused request gets 429
//! `rate_limited` with `Retry-After`.
//!
//! The client address is the connection's peer, unless the peer is one of the configured trusted
//! proxies: then it is the nearest address in `X-Forwarded-For` that is not itself a trusted
//! proxy ([`client_address`]), so visitors behind a reverse proxy have buckets of their own while
//! a client reaching Hark directly cannot choose its address by sending the header.

use std::hash::Hash;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::time::Duration;

use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum_extra::extract::CookieJar;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::error::ApiError;

/// A token bucket: `burst` requests at once, then one more every `every`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    pub burst: u32,
    pub every: Duration,
}

impl Rate {
    pub const fn new(burst: u32, every: Duration) -> Self {
        Self { burst, every }
    }

    /// `n` a minute: `n` at once, then one every minute / `n`.
    pub fn per_minute(n: u32) -> Self {
        let n = n.max(1);
        Self::new(n, Duration::from_secs(60) / n)
    }

    fn quota(self) -> Quota {
        let every = if self.every.is_zero() { Duration::from_nanos(1) } else { self.every };
        Quota::with_period(every)
            .expect("a non-zero period")
            .allow_burst(NonZeroU32::new(self.burst.max(1)).expect("a non-zero burst"))
    }
}

/// The limits of each kind of public request, per client address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateLimits {
    /// Requests without a session, or through a share link, embed key or moderation link (a
    /// shared dashboard's first load is about 25 requests, then a few a minute).
    pub public: Rate,
    /// Creating the first account.
    pub setup: Rate,
    /// Invitation and unsubscribe links (each holds a token that must not be guessed).
    pub tokens: Rate,
    /// Share-link changes and sending the link by mail, per tracker.
    pub share: Rate,
}

impl Default for RateLimits {
    fn default() -> Self {
        Self {
            public: Rate::per_minute(600),
            setup: Rate::new(20, Duration::from_secs(3)),
            tokens: Rate::new(60, Duration::from_secs(1)),
            share: Rate::new(30, Duration::from_secs(10)),
        }
    }
}

/// A limiter per key that tells how long to wait when it refuses.
pub struct Limiter<K: Hash + Eq + Clone> {
    inner: DefaultKeyedRateLimiter<K>,
}

impl<K: Hash + Eq + Clone> Limiter<K> {
    pub fn new(rate: Rate) -> Self {
        Self { inner: RateLimiter::keyed(rate.quota()) }
    }

    /// Takes one request of `key`'s bucket; when it is empty, how long until it has one again.
    pub fn check(&self, key: &K) -> Result<(), Duration> {
        let result = self.inner.check_key(key).map_err(|not_until| not_until.wait_time_from(DefaultClock::default().now()));
        // Buckets of keys not seen for a while are full again: forget them now and then.
        if self.inner.len() > 100_000 {
            self.inner.retain_recent();
        }
        result
    }
}

/// The 429 answer, with the wait in whole seconds (at least one).
pub fn too_many(message: &str, wait: Duration) -> ApiError {
    ApiError::Limited { message: message.into(), retry_after: wait.as_secs() + u64::from(wait.subsec_nanos() > 0) }
}

/// The limiters of one server.
pub struct PublicLimiters {
    public: Limiter<IpAddr>,
    setup: Limiter<IpAddr>,
    tokens: Limiter<IpAddr>,
    share: Limiter<(IpAddr, String)>,
}

impl PublicLimiters {
    pub fn new(limits: RateLimits) -> Self {
        Self {
            public: Limiter::new(limits.public),
            setup: Limiter::new(limits.setup),
            tokens: Limiter::new(limits.tokens),
            share: Limiter::new(limits.share),
        }
    }

    /// Charges a request to the buckets it belongs to.
    fn charge(&self, ip: IpAddr, method: &axum::http::Method, path: &str, query: Option<&str>, signed_in: bool) -> Result<(), ApiError> {
        let api = path.starts_with("/api/") || path.starts_with("/export/");
        if !api {
            return Ok(());
        }
        let writes = method != axum::http::Method::GET && method != axum::http::Method::HEAD;
        if writes && path == "/api/v1/setup" {
            self.setup.check(&ip).map_err(|w| too_many("Too many attempts to set up this instance. Wait and try again.", w))?;
        }
        if path.starts_with("/api/v1/invitations/") || path == crate::notify::UNSUBSCRIBE_PATH {
            self.tokens.check(&ip).map_err(|w| too_many("Too many requests for this link. Wait and try again.", w))?;
        }
        if writes {
            if let Some(hash) = share_change(path) {
                self.share
                    .check(&(ip, hash.to_string()))
                    .map_err(|w| too_many("Too many changes to this tracker's share link. Wait and try again.", w))?;
            }
        }
        if !signed_in || carries_public_key(query) {
            self.public.check(&ip).map_err(|w| too_many("Too many requests from your address. Wait and try again.", w))?;
        }
        Ok(())
    }
}

/// The tracker hash of a share-link change (`/api/v1/trackers/{hash}/share…`).
fn share_change(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("/api/v1/trackers/")?;
    let (hash, tail) = rest.split_once('/')?;
    (tail == "share" || tail.starts_with("share/")).then_some(hash)
}

fn carries_public_key(query: Option<&str>) -> bool {
    query.is_some_and(|q| {
        url::form_urlencoded::parse(q.as_bytes()).any(|(k, _)| k == "shareHash" || k == "embedKey" || k == "moderationKey")
    })
}

/// The address a request comes from: `peer`, or, when `peer` is a trusted proxy, the address its
/// `X-Forwarded-For` names last that is not a trusted proxy too (each proxy appends the address
/// it was reached from, so the addresses right of it were added by trusted hops). A header that
/// is missing or does not parse leaves the last trusted hop.
pub fn client_address(peer: IpAddr, headers: &axum::http::HeaderMap, trusted: &[ipnet::IpNet]) -> IpAddr {
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|net| net.contains(ip));
    if !is_trusted(&peer) {
        return peer;
    }
    let hops: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .collect();
    let mut client = peer;
    for hop in hops.iter().rev() {
        match parse_hop(hop) {
            Some(ip) => {
                client = ip;
                if !is_trusted(&ip) {
                    break;
                }
            }
            None => break,
        }
    }
    client
}

/// One address of `X-Forwarded-For`: a bare IPv4 or IPv6 address, `[v6]`, or either with a port.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    let hop = hop.trim();
    if let Ok(ip) = hop.parse::<IpAddr>() {
        return Some(ip);
    }
    hop.parse::<SocketAddr>().ok().map(|s| s.ip()).or_else(|| hop.strip_prefix('[')?.strip_suffix(']')?.parse().ok())
}

/// The middleware that puts the client's address ([`client_address`]) where the rate limits and
/// sign-in look for it, when the server trusts proxies.
pub async fn forwarded(State(trusted): State<std::sync::Arc<Vec<ipnet::IpNet>>>, mut req: Request, next: Next) -> Response {
    if !trusted.is_empty() {
        if let Some(ConnectInfo(peer)) = req.extensions().get::<ConnectInfo<SocketAddr>>().copied() {
            let client = client_address(peer.ip(), req.headers(), &trusted);
            req.extensions_mut().insert(ConnectInfo(SocketAddr::new(client, peer.port())));
        }
    }
    next.run(req).await
}

/// The middleware: a request over a limit is answered 429 without reaching its handler. A
/// request without a peer address (served in-process) is not limited.
pub async fn limit(State(limiters): State<std::sync::Arc<PublicLimiters>>, req: Request, next: Next) -> Response {
    if let Some(ConnectInfo(peer)) = req.extensions().get::<ConnectInfo<SocketAddr>>() {
        let signed_in = CookieJar::from_headers(req.headers()).get(crate::auth::SESSION_COOKIE).is_some();
        if let Err(e) = limiters.charge(peer.ip(), req.method(), req.uri().path(), req.uri().query(), signed_in) {
            return e.into_response();
        }
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::Method;

    fn xff(values: &[&str]) -> axum::http::HeaderMap {
        let mut h = axum::http::HeaderMap::new();
        for v in values {
            h.append("x-forwarded-for", v.parse().unwrap());
        }
        h
    }

    #[test]
    fn the_client_address_is_taken_from_trusted_proxies_only() {
        let trusted: Vec<ipnet::IpNet> = vec!["127.0.0.1/32".parse().unwrap(), "10.0.0.0/8".parse().unwrap()];
        let proxy: IpAddr = "127.0.0.1".parse().unwrap();
        let direct: IpAddr = "198.51.100.7".parse().unwrap();
        // A client reaching us directly cannot pick its address.
        assert_eq!(client_address(direct, &xff(&["203.0.113.9"]), &trusted), direct);
        // Through the proxy: the address it was reached from.
        assert_eq!(client_address(proxy, &xff(&["203.0.113.9"]), &trusted), "203.0.113.9".parse::<IpAddr>().unwrap());
        // A client's own forged entries stay left of the real one, and trusted hops are skipped.
        assert_eq!(
            client_address(proxy, &xff(&["1.2.3.4, 203.0.113.9", "10.1.2.3"]), &trusted),
            "203.0.113.9".parse::<IpAddr>().unwrap()
        );
        assert_eq!(client_address(proxy, &xff(&["[2001:db8::1]:443"]), &trusted), "2001:db8::1".parse::<IpAddr>().unwrap());
        assert_eq!(client_address(proxy, &xff(&["192.0.2.1:8080"]), &trusted), "192.0.2.1".parse::<IpAddr>().unwrap());
        // Nothing usable: the last trusted hop.
        assert_eq!(client_address(proxy, &xff(&[]), &trusted), proxy);
        assert_eq!(client_address(proxy, &xff(&["garbage, 10.0.0.5"]), &trusted), "10.0.0.5".parse::<IpAddr>().unwrap());
        // No proxies trusted: the peer, whatever the header.
        assert_eq!(client_address(proxy, &xff(&["203.0.113.9"]), &[]), proxy);
    }

    fn tight() -> RateLimits {
        let r = Rate::new(2, Duration::from_secs(60));
        RateLimits { public: r, setup: r, tokens: r, share: r }
    }

    #[test]
    fn each_kind_of_request_has_its_bucket() {
        let l = PublicLimiters::new(tight());
        let ip: IpAddr = "192.0.2.1".parse().unwrap();
        let other: IpAddr = "192.0.2.2".parse().unwrap();
        // Signed in, without a public key: not limited here.
        for _ in 0..5 {
            l.charge(ip, &Method::GET, "/api/v1/trackers", None, true).unwrap();
        }
        // Signed out: the public bucket.
        l.charge(ip, &Method::GET, "/api/v1/me", None, false).unwrap();
        l.charge(ip, &Method::GET, "/api/v1/me", None, false).unwrap();
        match l.charge(ip, &Method::GET, "/api/v1/me", None, false) {
            Err(ApiError::Limited { retry_after, .. }) => assert!((1..=60).contains(&retry_after), "{retry_after}"),
            other => panic!("{other:?}"),
        }
        // A share link read counts even with a session; another address has its own bucket.
        assert!(l.charge(ip, &Method::GET, "/api/v1/trackers/abc/posts", Some("shareHash=x"), true).is_err());
        l.charge(other, &Method::GET, "/api/v1/trackers/abc/posts", Some("days=7&shareHash=x"), true).unwrap();
        // The web app's files are never limited.
        l.charge(ip, &Method::GET, "/assets/index.js", None, false).unwrap();
    }

    #[test]
    fn rates_per_minute() {
        assert_eq!(Rate::per_minute(600), Rate::new(600, Duration::from_millis(100)));
        assert_eq!(Rate::per_minute(0), Rate::new(1, Duration::from_secs(60)));
    }

    #[test]
    fn share_changes_count_per_tracker() {
        let l = PublicLimiters::new(tight());
        let ip: IpAddr = "192.0.2.1".parse().unwrap();
        for path in ["/api/v1/trackers/aaa/share", "/api/v1/trackers/aaa/share/revoke"] {
            l.charge(ip, &Method::PUT, path, None, true).unwrap();
        }
        assert!(l.charge(ip, &Method::POST, "/api/v1/trackers/aaa/share/email", None, true).is_err());
        l.charge(ip, &Method::POST, "/api/v1/trackers/bbb/share/email", None, true).unwrap();
        // Reading the settings is not a change.
        for _ in 0..5 {
            l.charge(ip, &Method::GET, "/api/v1/trackers/aaa/share", None, true).unwrap();
        }
        assert_eq!(share_change("/api/v1/trackers/aaa/shared-thing"), None);
    }

    #[test]
    fn setup_and_token_links_have_their_own_buckets() {
        let l = PublicLimiters::new(RateLimits { public: Rate::new(100, Duration::from_secs(1)), ..tight() });
        let ip: IpAddr = "192.0.2.1".parse().unwrap();
        l.charge(ip, &Method::POST, "/api/v1/setup", None, false).unwrap();
        l.charge(ip, &Method::POST, "/api/v1/setup", None, false).unwrap();
        assert!(l.charge(ip, &Method::POST, "/api/v1/setup", None, false).is_err());
        // Asking whether setup is needed is a read.
        l.charge(ip, &Method::GET, "/api/v1/setup", None, false).unwrap();
        l.charge(ip, &Method::GET, "/api/v1/invitations/t1", None, false).unwrap();
        l.charge(ip, &Method::POST, "/api/v1/unsubscribe", Some("token=x"), false).unwrap();
        assert!(l.charge(ip, &Method::GET, "/api/v1/unsubscribe", Some("token=x"), false).is_err());
    }
}
