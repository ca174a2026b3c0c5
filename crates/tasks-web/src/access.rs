//! Who may use the page, and how (issue 14 §2): the listen rule, the session token, the
//! Host check, and the CSRF token of every write.
//!
//! The threat is another web page the person has open, or another user of the machine:
//! - a page on another origin can make the browser send requests to 127.0.0.1 — it
//!   cannot read the answers, and it cannot know the session token or the CSRF token,
//!   so every request needs the token (cookie or `Authorization: Bearer`) and every
//!   write needs the CSRF token, which only the page itself can read;
//! - DNS rebinding makes an attacker's host name resolve to 127.0.0.1 so the browser
//!   treats it as same-origin: the Host header then names the attacker's host, and is
//!   refused (403) unless it is the listen address;
//! - another user on the machine can connect to loopback, but not read the token, which
//!   is printed only to the terminal that started the server.
//!
//! Tokens are compared in constant time. Nothing here logs a token.

use std::net::SocketAddr;

use axum::http::{HeaderMap, header};

/// The cookie that carries the session token once `/?token=T` was opened.
pub const SESSION_COOKIE: &str = "tasks_session";

/// The header a script sends the CSRF token in; forms send the field [`CSRF_FIELD`].
pub const CSRF_HEADER: &str = "x-csrf-token";

/// The form field that carries the CSRF token.
pub const CSRF_FIELD: &str = "_csrf";

/// Bytes of randomness in a generated token (printed as hex: 64 characters).
const TOKEN_BYTES: usize = 32;

/// Why a listen address was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ListenError {
    /// A non-loopback address without a token chosen by the person.
    #[error("{addr} is reachable from other machines: give --token (or TASKS_SERVE_TOKEN) to serve beyond loopback")]
    NeedsToken {
        /// The address asked for.
        addr: SocketAddr,
    },
}

/// Refuses a non-loopback listen address unless the person chose the token
/// (a random token printed on a terminal is fine on loopback, where only this
/// machine's users can connect; beyond it, the person decides).
pub fn check_listen(addr: SocketAddr, token_given: bool) -> Result<(), ListenError> {
    if addr.ip().is_loopback() || token_given { Ok(()) } else { Err(ListenError::NeedsToken { addr }) }
}

/// Makes a random token: 32 bytes from the OS, as hex.
pub fn random_token() -> Result<String, String> {
    let mut bytes = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut bytes).map_err(|e| format!("cannot read random bytes: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Compares two secrets in time independent of where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The secrets and the names this server answers to.
#[derive(Clone)]
pub struct Access {
    token: String,
    csrf: String,
    hosts: Vec<String>,
}

impl std::fmt::Debug for Access {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Access").field("token", &"<redacted>").field("hosts", &self.hosts).finish()
    }
}

/// How a request proved who it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Proof {
    /// The session cookie (a browser): writes need the CSRF token too.
    Cookie,
    /// `Authorization: Bearer` (a script): browsers never add it on their own, so a
    /// forged cross-site request cannot carry it.
    Bearer,
    /// `?token=` in the URL (the link printed at start): answered with the cookie and a
    /// redirect to the same path without the token.
    Query,
}

impl Access {
    /// Builds the access rules for a listen address. The Host header must be that
    /// address (or `localhost:PORT` when it is loopback).
    pub fn new(token: String, csrf: String, listen: SocketAddr) -> Access {
        let port = listen.port();
        let mut hosts = vec![listen.to_string()];
        if listen.ip().is_loopback() {
            hosts.push(format!("localhost:{port}"));
            hosts.push(format!("127.0.0.1:{port}"));
            hosts.push(format!("[::1]:{port}"));
        }
        hosts.sort();
        hosts.dedup();
        Access { token, csrf, hosts }
    }

    /// The CSRF token the pages embed.
    pub fn csrf(&self) -> &str {
        &self.csrf
    }

    /// Returns true when the Host header names this server (DNS rebinding defence).
    pub fn host_allowed(&self, headers: &HeaderMap) -> bool {
        let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else { return false };
        let host = host.trim().to_ascii_lowercase();
        self.hosts.contains(&host)
    }

    /// Returns how the request proved the token, or `None`.
    pub fn proof(&self, headers: &HeaderMap, query_token: Option<&str>) -> Option<Proof> {
        if let Some(t) = query_token
            && same_secret(t, &self.token)
        {
            return Some(Proof::Query);
        }
        if let Some(auth) = headers.get(header::AUTHORIZATION).and_then(|h| h.to_str().ok())
            && let Some(t) = auth.strip_prefix("Bearer ")
            && same_secret(t.trim(), &self.token)
        {
            return Some(Proof::Bearer);
        }
        let cookies = headers.get_all(header::COOKIE);
        for value in cookies.iter().filter_map(|v| v.to_str().ok()) {
            for pair in value.split(';') {
                if let Some((name, v)) = pair.trim().split_once('=')
                    && name == SESSION_COOKIE
                    && same_secret(v, &self.token)
                {
                    return Some(Proof::Cookie);
                }
            }
        }
        None
    }

    /// Returns true when `given` is the CSRF token.
    pub fn csrf_ok(&self, given: Option<&str>) -> bool {
        given.is_some_and(|g| same_secret(g, &self.csrf))
    }

    /// The `Set-Cookie` value for a session: HttpOnly (scripts never read it),
    /// SameSite=Strict (no other site's page sends it), for the whole server.
    pub fn session_cookie(&self) -> String {
        format!("{SESSION_COOKIE}={}; Path=/; HttpOnly; SameSite=Strict", self.token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_str(v).expect("header"));
        }
        h
    }

    fn access() -> Access {
        Access::new("t0ken".into(), "csrf".into(), "127.0.0.1:7878".parse().expect("addr"))
    }

    #[test]
    fn loopback_needs_no_chosen_token_and_any_other_address_does() {
        assert!(check_listen("127.0.0.1:7878".parse().expect("addr"), false).is_ok());
        assert!(check_listen("[::1]:7878".parse().expect("addr"), false).is_ok());
        let err = check_listen("0.0.0.0:7878".parse().expect("addr"), false).expect_err("refused");
        assert!(err.to_string().contains("--token"), "{err}");
        assert!(check_listen("192.168.1.5:7878".parse().expect("addr"), true).is_ok());
    }

    #[test]
    fn the_host_must_be_the_listen_address() {
        let a = access();
        assert!(a.host_allowed(&headers(&[("host", "127.0.0.1:7878")])));
        assert!(a.host_allowed(&headers(&[("host", "localhost:7878")])));
        assert!(!a.host_allowed(&headers(&[("host", "evil.example:7878")])));
        assert!(!a.host_allowed(&headers(&[("host", "127.0.0.1:7879")])));
        assert!(!a.host_allowed(&HeaderMap::new()));
    }

    #[test]
    fn the_token_is_read_from_query_bearer_or_cookie_and_nothing_else() {
        let a = access();
        assert_eq!(a.proof(&HeaderMap::new(), Some("t0ken")), Some(Proof::Query));
        assert_eq!(a.proof(&headers(&[("authorization", "Bearer t0ken")]), None), Some(Proof::Bearer));
        assert_eq!(a.proof(&headers(&[("cookie", "a=b; tasks_session=t0ken")]), None), Some(Proof::Cookie));
        assert_eq!(a.proof(&headers(&[("cookie", "tasks_session=t0ke")]), None), None);
        assert_eq!(a.proof(&headers(&[("authorization", "Basic t0ken")]), None), None);
        assert_eq!(a.proof(&HeaderMap::new(), Some("wrong")), None);
    }

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
        assert!(!same_secret("abc", "abcd"));
        assert!(!same_secret("", "a"));
    }

    #[test]
    fn a_random_token_is_64_hex_characters_and_differs_each_time() {
        let a = random_token().expect("token");
        let b = random_token().expect("token");
        assert_eq!(a.len(), 64);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }

    #[test]
    fn debug_never_shows_the_token() {
        assert!(!format!("{:?}", access()).contains("t0ken"));
    }
}
