//! Passwords, sessions, CSRF and login rate limiting.

use std::net::IpAddr;
use std::time::Duration;

use argon2::password_hash::{rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::extract::Request;
use axum::http::{HeaderMap, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};
use hark_core::now_millis;
use hark_store::UserRow;
use rand::RngCore;
use sha2::{Digest, Sha256};

use crate::error::{ApiError, ApiResult};
use crate::limits::{too_many, Limiter, Rate};
use crate::AppState;
use hark_core::Code;

pub const SESSION_COOKIE: &str = "hark_session";
pub const CSRF_COOKIE: &str = "hark_csrf";
pub const CSRF_HEADER: &str = "x-csrf-token";
const SESSION_DAYS: i64 = 30;
pub const PASSWORD_MIN: usize = 8;
pub const PASSWORD_MAX: usize = 200;

pub fn hash_password(password: &str) -> ApiResult<String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| ApiError::Internal(format!("hashing password: {e}")))
}

/// Checks a password against a stored hash. An unusable stored hash (a system account) never
/// matches.
pub fn verify_password(password: &str, stored: &str) -> bool {
    match PasswordHash::new(stored) {
        Ok(parsed) => Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok(),
        Err(_) => false,
    }
}

pub fn validate_password(password: &str) -> ApiResult<()> {
    let n = password.chars().count();
    if n < PASSWORD_MIN || n > PASSWORD_MAX {
        return Err(ApiError::new(
            Code::InvalidPassword,
            format!("Password must be {PASSWORD_MIN} to {PASSWORD_MAX} characters."),
        ));
    }
    Ok(())
}

pub fn validate_email(email: &str) -> ApiResult<String> {
    let e = email.trim().to_lowercase();
    let ok = e.len() <= 254
        && e.split_once('@').is_some_and(|(l, d)| !l.is_empty() && d.contains('.') && !d.starts_with('.'))
        && !e.chars().any(char::is_whitespace);
    if ok {
        Ok(e)
    } else {
        Err(ApiError::new(Code::InvalidEmail, "Enter a valid email address."))
    }
}

fn random_token() -> String {
    let mut b = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut b);
    hex::encode(b)
}

fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

pub async fn session_user(state: &AppState, token: &str) -> ApiResult<Option<UserRow>> {
    if token.len() != 64 {
        return Ok(None);
    }
    Ok(state.store.session_user(&token_hash(token), now_millis()).await?)
}

/// [`session_user`] for a GET request: kept while nothing changed ([`crate::lookups`]), so a
/// session that expires is refused at most [`crate::lookups::LOOKUP_TTL`] late.
pub async fn session_user_kept(state: &AppState, token: &str) -> ApiResult<Option<UserRow>> {
    if token.len() != 64 {
        return Ok(None);
    }
    let hash = token_hash(token);
    state.lookups.session(&hash, async { Ok(state.store.session_user(&hash, now_millis()).await?) }).await
}

fn secure(state: &AppState, headers: &HeaderMap) -> bool {
    state.config.secure_cookies
        || headers.get("x-forwarded-proto").and_then(|v| v.to_str().ok()) == Some("https")
}

/// Starts a session for `user` and rotates the CSRF token.
pub async fn start_session(state: &AppState, headers: &HeaderMap, jar: CookieJar, user_id: i64) -> ApiResult<CookieJar> {
    let token = random_token();
    let now = now_millis();
    state.store.create_session(&token_hash(&token), user_id, now, now + SESSION_DAYS * 86_400_000).await?;
    let secure = secure(state, headers);
    let session = Cookie::build((SESSION_COOKIE, token))
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure)
        .max_age(time_days(SESSION_DAYS))
        .build();
    Ok(jar.add(session).add(csrf_cookie(random_token(), secure)))
}

pub async fn end_session(state: &AppState, jar: CookieJar) -> ApiResult<CookieJar> {
    if let Some(c) = jar.get(SESSION_COOKIE) {
        state.store.delete_session(&token_hash(c.value())).await?;
    }
    Ok(jar.remove(Cookie::build(SESSION_COOKIE).path("/")))
}

fn time_days(days: i64) -> time::Duration {
    time::Duration::days(days)
}

fn csrf_cookie(value: String, secure: bool) -> Cookie<'static> {
    Cookie::build((CSRF_COOKIE, value)).path("/").http_only(false).same_site(SameSite::Strict).secure(secure).build()
}

/// The CSRF token of this browser, creating the cookie when missing.
pub fn ensure_csrf(state: &AppState, headers: &HeaderMap, jar: CookieJar) -> (CookieJar, String) {
    match jar.get(CSRF_COOKIE).map(|c| c.value().to_string()) {
        Some(v) if v.len() == 64 => (jar, v),
        _ => {
            let v = random_token();
            (jar.add(csrf_cookie(v.clone(), secure(state, headers))), v)
        }
    }
}

/// Every state-changing request must echo the CSRF cookie in the `X-CSRF-Token` header
/// (double submit; the cookie is SameSite=Strict so another site can neither read nor send it).
pub async fn csrf_guard(req: Request, next: Next) -> Response {
    let safe = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS)
        // One-click unsubscribe (RFC 8058) is posted by mail clients without cookies; its signed
        // token is all it acts on, and it reads no session.
        || req.uri().path() == crate::notify::UNSUBSCRIBE_PATH;
    if !safe {
        let jar = CookieJar::from_headers(req.headers());
        let cookie = jar.get(CSRF_COOKIE).map(|c| c.value().to_string());
        let header = req.headers().get(CSRF_HEADER).and_then(|v| v.to_str().ok());
        let ok = match (cookie.as_deref(), header) {
            (Some(c), Some(h)) => c.len() == 64 && constant_time_eq(c.as_bytes(), h.as_bytes()),
            _ => false,
        };
        if !ok {
            return ApiError::new(
                Code::CsrfFailed,
                "The request is missing its CSRF token; reload the page and try again.",
            )
            .into_response();
        }
    }
    next.run(req).await
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Login attempts per client address and email: a burst of 10, then one every 30 seconds.
pub struct LoginLimiter(Limiter<(IpAddr, String)>);

impl Default for LoginLimiter {
    fn default() -> Self {
        Self(Limiter::new(Rate::new(10, Duration::from_secs(30))))
    }
}

impl LoginLimiter {
    pub fn check(&self, ip: IpAddr, email: &str) -> ApiResult<()> {
        self.0
            .check(&(ip, email.to_string()))
            .map_err(|wait| too_many("Too many sign-in attempts. Wait a few minutes and try again.", wait))
    }
}


#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_hash_and_verify() {
        let h = hash_password("correct horse").unwrap();
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("wrong horse", &h));
        assert!(!verify_password("anything", "!disabled"));
    }

    #[test]
    fn emails_and_passwords_are_checked() {
        assert_eq!(validate_email(" Ann@Example.org ").unwrap(), "ann@example.org");
        assert!(validate_email("nope").is_err());
        assert!(validate_email("a@b").is_err());
        assert!(validate_password("short").is_err());
        assert!(validate_password("long enough").is_ok());
    }

    #[test]
    fn limiter_stops_after_burst() {
        let l = LoginLimiter::default();
        let ip: IpAddr = "127.0.0.1".parse().unwrap();
        for _ in 0..10 {
            l.check(ip, "a@b.c").unwrap();
        }
        assert!(l.check(ip, "a@b.c").is_err());
        assert!(l.check(ip, "other@b.c").is_ok());
    }
}
