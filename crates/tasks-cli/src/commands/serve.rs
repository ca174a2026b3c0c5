//! `tasks serve`: the Task Center web page (issue 14). Everything it serves lives in
//! `tasks-web`; this module reads the flags and the token, refuses a non-loopback
//! address without a chosen token, prints the link, and runs until SIGTERM or SIGINT.

use std::net::SocketAddr;

use clap::Args;
use tokio::signal::unix::{SignalKind, signal};

use super::App;
use crate::env;
use crate::error::CliError;

/// Where the page listens unless told otherwise: loopback only.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:7878";

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The address to listen on; anything but loopback needs --token
    #[arg(long, value_name = "ADDR:PORT", default_value = DEFAULT_LISTEN)]
    pub listen: String,
    /// Open the page in the browser (xdg-open) once it is up
    #[arg(long)]
    pub open: bool,
    /// The session token [default: TASKS_SERVE_TOKEN, else a random one printed at start]
    #[arg(long, value_name = "TOKEN")]
    pub token: Option<String>,
}

pub fn run(app: &mut App, a: ServeArgs) -> Result<(), CliError> {
    crate::vars::protect_memory();
    let listen: SocketAddr = a.listen.trim().parse().map_err(|_| {
        CliError::validation(
            format!("listen: cannot read \"{}\" as an address and port", a.listen),
            Some("hint: --listen 127.0.0.1:7878 (or [::1]:7878)".into()),
        )
    })?;
    let chosen = match a.token {
        Some(t) => Some(t),
        None => env::capture().text("TASKS_SERVE_TOKEN")?,
    };
    if let Some(t) = &chosen
        && (t.len() < 16 || t.chars().any(|c| !c.is_ascii_graphic() || c == ';' || c == ','))
    {
        return Err(CliError::validation(
            "token: give at least 16 printable characters without spaces, ';' or ','",
            Some("hint: a random one is made when --token is not given".into()),
        ));
    }
    let token_given = chosen.is_some();
    let token = match chosen {
        Some(t) => t,
        None => tasks_web::random_token().map_err(CliError::other)?,
    };
    let settings = super::bot::runner_settings(app)?;
    let config = tasks_web::ServeConfig { settings, listen, token: token.clone() };
    // One thread is enough: every store step runs on the blocking pool.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::other(format!("cannot start the async runtime: {e}")))?;
    rt.block_on(async move {
        let listener = tasks_web::bind(listen, token_given).await.map_err(web_error)?;
        let bound = listener.local_addr().map_err(|e| CliError::other(format!("cannot read the address: {e}")))?;
        let state = tasks_web::AppState::new(&tasks_web::ServeConfig { listen: bound, ..config }).map_err(web_error)?;
        let host = if bound.ip().is_loopback() && bound.is_ipv4() {
            format!("127.0.0.1:{}", bound.port())
        } else {
            bound.to_string()
        };
        let url = format!("http://{host}/?token={token}");
        // The link goes to the terminal that started the server, never to a log.
        eprintln!("tasks serve: the Task Center is at {url}");
        eprintln!("tasks serve: keep this link private; it opens the page without a password");
        if a.open {
            let _ = std::process::Command::new("xdg-open")
                .arg(&url)
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn();
        }
        let shutdown = async {
            let mut term = match signal(SignalKind::terminate()) {
                Ok(s) => s,
                Err(_) => return std::future::pending().await,
            };
            tokio::select! {
                _ = term.recv() => {}
                _ = tokio::signal::ctrl_c() => {}
            }
        };
        tasks_web::serve(listener, state, shutdown).await.map_err(web_error)?;
        eprintln!("tasks serve: stopped");
        Ok(())
    })
}

fn web_error(e: tasks_web::ServeError) -> CliError {
    match e {
        tasks_web::ServeError::Store(e) => e.into(),
        tasks_web::ServeError::Listen(m) => CliError::validation(m, None),
        tasks_web::ServeError::Io(e) => CliError::other(format!("the server stopped: {e}")),
    }
}
