//! Keeps requests to addresses that tracker editors choose (their feed URLs, Mastodon servers)
//! away from this machine and its private networks. A literal address is judged as written; a
//! host name is judged by every address it resolves to, both when the tracker is saved (so the
//! editor hears why) and each time a connection is made (the resolver below hands the client
//! only public addresses, so a name that later resolves elsewhere — DNS rebinding — still
//! cannot reach a private one). Redirects are checked the same way.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};

/// Whether an address belongs to this machine, a private or shared network, or is otherwise
/// not a public unicast address.
pub fn is_private_ip(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(ip) => {
            let o = ip.octets();
            ip.is_private()
                || ip.is_loopback()
                || ip.is_link_local()
                || ip.is_unspecified()
                || ip.is_broadcast()
                || ip.is_multicast()
                || o[0] == 0
                || (o[0] == 100 && (64..128).contains(&o[1]))
                || (o[0] == 192 && o[1] == 0 && o[2] == 0)
                || o[0] >= 240
        }
        IpAddr::V6(ip) => {
            let s0 = ip.segments()[0];
            ip.is_loopback()
                || ip.is_unspecified()
                || ip.is_multicast()
                || (s0 & 0xfe00) == 0xfc00
                || (s0 & 0xffc0) == 0xfe80
                || ip.to_ipv4_mapped().is_some_and(|v4| is_private_ip(IpAddr::V4(v4)))
        }
    }
}

/// Why a URL may not be fetched for a tracker, or `None` when its host is public: a private
/// literal address or local name (no lookup), else a host name that resolves to a private
/// address or not at all.
pub async fn private_url_reason(url: &str) -> Option<String> {
    if crate::rss::is_private_url(url) {
        return Some("it points at this server or a private network".into());
    }
    let parsed = reqwest::Url::parse(url).ok()?;
    let Some(url::Host::Domain(host)) = parsed.host() else { return None };
    let host = host.to_string();
    let port = parsed.port_or_known_default().unwrap_or(443);
    let found = tokio::net::lookup_host((host.as_str(), port)).await;
    match found {
        Ok(addrs) => {
            let addrs: Vec<SocketAddr> = addrs.collect();
            if addrs.is_empty() {
                Some(format!("its host {host} does not resolve"))
            } else if addrs.iter().any(|a| is_private_ip(a.ip())) {
                Some(format!("its host {host} resolves to a private address"))
            } else {
                None
            }
        }
        Err(_) => Some(format!("its host {host} does not resolve")),
    }
}

/// Resolves host names with the system resolver and keeps only public addresses.
#[derive(Debug, Default)]
struct PublicResolver;

impl Resolve for PublicResolver {
    fn resolve(&self, name: Name) -> Resolving {
        Box::pin(async move {
            let host = name.as_str().to_string();
            let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let public: Vec<SocketAddr> = addrs.into_iter().filter(|a| !is_private_ip(a.ip())).collect();
            if public.is_empty() {
                let e: Box<dyn std::error::Error + Send + Sync> =
                    format!("{host} resolves only to private addresses; refused").into();
                return Err(e);
            }
            let it: Addrs = Box::new(public.into_iter());
            Ok(it)
        })
    }
}

/// A client builder that connects to public addresses only.
pub fn public_only(builder: reqwest::ClientBuilder) -> reqwest::ClientBuilder {
    builder.dns_resolver(Arc::new(PublicResolver)).redirect(reqwest::redirect::Policy::custom(|attempt| {
        if attempt.previous().len() >= 10 {
            attempt.error("too many redirects")
        } else if crate::rss::is_private_url(attempt.url().as_str()) {
            attempt.error("redirect to a private address refused")
        } else {
            attempt.follow()
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_addresses() {
        for ip in ["127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "fd00::1", "fe80::1", "::ffff:10.0.0.1"] {
            assert!(is_private_ip(ip.parse().unwrap()), "{ip}");
        }
        for ip in ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "1.1.1.1"] {
            assert!(!is_private_ip(ip.parse().unwrap()), "{ip}");
        }
    }

    #[tokio::test]
    async fn host_names_are_resolved() {
        // `localhost` by name, and a name only the local resolver knows (the hosts file), both
        // resolve to loopback.
        assert!(private_url_reason("http://localhost:8080/feed").await.is_some());
        assert!(private_url_reason("http://127.0.0.1/feed").await.is_some());
        assert!(private_url_reason("http://[::1]/feed").await.is_some());
        let r = private_url_reason("http://no-such-host.invalid/feed").await.unwrap();
        assert!(r.contains("does not resolve"), "{r}");
        // A literal public address needs no lookup.
        assert!(private_url_reason("https://93.184.216.34/feed").await.is_none());
    }

    #[tokio::test]
    async fn the_client_refuses_names_that_resolve_privately() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let http = crate::Http::public_only(crate::RetryPolicy { max_retries: 0, ..crate::RetryPolicy::fast() });
        // `localhost` resolves to 127.0.0.1, where a server listens: still refused.
        let url = format!("http://localhost:{port}/");
        let err = http.send(|c| c.get(&url)).await.unwrap_err();
        assert!(matches!(err, crate::CollectError::Network(_)), "{err:?}");
    }
}
