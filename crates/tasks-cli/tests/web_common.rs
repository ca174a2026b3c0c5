//! A real `tasks serve` process on a free loopback port, and a raw HTTP/1.1 client that
//! sends exactly the headers a test gives (a foreign Host, no cookie …).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common::TestEnv;

/// A running `tasks serve`; killed when dropped.
pub struct Served {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// The session token.
    pub token: String,
    /// What it wrote on stderr so far.
    pub stderr: Arc<Mutex<String>>,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    /// Starts `tasks serve --listen 127.0.0.1:0` with the env's settings plus `extra`
    /// variables, and waits for the link it prints.
    pub fn start(env: &TestEnv, extra: &[(&str, &str)]) -> Served {
        let mut cmd = env.command(&["serve", "--listen", "127.0.0.1:0"]);
        for (k, v) in extra {
            cmd.env(k, v);
        }
        cmd.stderr(Stdio::piped()).stdout(Stdio::null());
        let mut child = cmd.spawn().expect("spawn tasks serve");
        let stderr = child.stderr.take().expect("stderr");
        let log = Arc::new(Mutex::new(String::new()));
        let (tx, rx) = std::sync::mpsc::channel();
        {
            let log = log.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stderr).lines() {
                    let Ok(line) = line else { break };
                    if let Some(url) = line.split("is at ").nth(1) {
                        let _ = tx.send(url.trim().to_string());
                    }
                    if let Ok(mut l) = log.lock() {
                        l.push_str(&line);
                        l.push('\n');
                    }
                }
            });
        }
        let url = rx.recv_timeout(Duration::from_secs(30)).unwrap_or_else(|_| {
            panic!("tasks serve printed no link: {}", log.lock().map(|l| l.clone()).unwrap_or_default())
        });
        let rest = url.strip_prefix("http://").expect("an http link");
        let (addr, query) = rest.split_once("/?token=").expect("a token in the link");
        Served { child, addr: addr.to_string(), token: query.to_string(), stderr: log }
    }

    /// What the server wrote on stderr so far.
    pub fn log(&self) -> String {
        self.stderr.lock().map(|l| l.clone()).unwrap_or_default()
    }

    /// The link the server printed.
    pub fn link(&self) -> String {
        format!("http://{}/?token={}", self.addr, self.token)
    }

    /// Sends a request with exactly these headers (Host defaults to the address).
    pub fn request(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Resp {
        send(&self.addr, method, path, headers, body)
    }

    /// A GET with the bearer token.
    pub fn get(&self, path: &str) -> Resp {
        let auth = format!("Bearer {}", self.token);
        self.request("GET", path, &[("Authorization", &auth)], "")
    }

    /// Reads the CSRF token from a page.
    pub fn csrf(&self) -> String {
        let page = self.get("/center");
        let at = page.body.find("name=\"csrf-token\" content=\"").expect("csrf meta") + 27;
        page.body[at..at + 64].to_string()
    }

    /// A cookie header as a browser that opened the link would send.
    pub fn cookie(&self) -> String {
        format!("tasks_session={}", self.token)
    }
}

/// An answer.
#[derive(Debug)]
pub struct Resp {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Resp {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// Sends one HTTP/1.1 request and reads the whole answer.
pub fn send(addr: &str, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Resp {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(Duration::from_secs(30))).expect("timeout");
    let mut req = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n", body.len());
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        req.push_str(&format!("Host: {addr}\r\n"));
    }
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    stream.write_all(req.as_bytes()).expect("write");
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("read");
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines.next().and_then(|l| l.split_whitespace().nth(1)).and_then(|s| s.parse().ok()).unwrap_or(0);
    let headers: Vec<(String, String)> =
        lines.filter_map(|l| l.split_once(':').map(|(k, v)| (k.trim().to_lowercase(), v.trim().to_string()))).collect();
    let chunked = headers.iter().any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked { dechunk(rest) } else { rest.to_string() };
    Resp { status, headers, body }
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// Waits until `check` holds, polling; fails naming `what` after 20 s.
pub fn wait_until(what: &str, mut check: impl FnMut() -> bool) {
    let start = Instant::now();
    while !check() {
        assert!(start.elapsed() < Duration::from_secs(20), "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Every row of every table, as text: two dumps differ exactly when a write happened.
pub fn dump(db: &std::path::Path) -> String {
    let conn = rusqlite::Connection::open(db).expect("open store");
    let mut tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .expect("tables")
        .query_map([], |r| r.get(0))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("names");
    tables.retain(|t| !t.starts_with("sqlite_"));
    let mut out = String::new();
    for t in tables {
        let mut stmt = conn.prepare(&format!("SELECT * FROM \"{t}\"")).expect("select");
        let n = stmt.column_count();
        let rows = stmt
            .query_map([], |r| {
                let mut line = String::new();
                for i in 0..n {
                    let v: rusqlite::types::Value = r.get(i)?;
                    line.push_str(&format!("{v:?}|"));
                }
                Ok(line)
            })
            .expect("rows");
        out.push_str(&format!("## {t}\n"));
        for r in rows {
            out.push_str(&r.expect("row"));
            out.push('\n');
        }
    }
    out
}
