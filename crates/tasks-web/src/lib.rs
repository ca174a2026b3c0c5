//! The Task Center (issue 14): a local web page served by the `tasks` binary — every
//! scheduled Task with what needs attention, one create modal, the conversation view
//! with its queue, and today's own tasks.
//!
//! Shape: axum on the tokio the edges already use; pages rendered on the server with
//! `maud` (HTML checked at compile time, text escaped by construction); a little vanilla
//! JS and CSS embedded in the binary ([`assets`]); every read and write goes through
//! `tasks_core::ops` (and `tasks_chat` for the composer and approvals) — no SQL here.
//!
//! Safety ([`access`]): loopback by default; a session token on every request (the
//! printed `/?token=T` link sets a cookie; scripts send `Authorization: Bearer`); the
//! Host header must be the listen address; every write is a POST carrying the CSRF
//! token; no GET writes. Store steps run on the blocking pool with their own connection,
//! so no connection lives across an `.await`.
//!
//! Updates without reload: a watcher thread keeps one connection and reads the store's
//! change stamp every quarter second (`Reads::change_stamp`: SQLite's `data_version`,
//! PostgreSQL's WAL position); pages poll `/api/stamp` and refresh their main region
//! when it moved (the daemon, the bot or a CLI wrote).

pub mod access;
mod assets;
mod form;
mod graph;
mod pages;
mod routes;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tasks_bot::runner::{Runner, Settings};
use tasks_core::Context;
use tasks_core::port::Engine;
use tokio::net::TcpListener;
use tokio::sync::Notify;

pub use access::{Access, ListenError, check_listen, random_token};
pub use routes::router;

/// How often the worker looks at the queues when nothing woke it (a firing the daemon
/// queued).
const WORKER_IDLE: Duration = Duration::from_secs(2);

/// What `tasks serve` was asked for.
#[derive(Debug, Clone)]
pub struct ServeConfig {
    /// Store, actor, zone, clock, model: as the bot runner takes them.
    pub settings: Settings,
    /// The address to listen on.
    pub listen: SocketAddr,
    /// The session token.
    pub token: String,
}

/// Why the server could not run.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// A store step failed.
    #[error(transparent)]
    Store(#[from] tasks_core::Error),
    /// The listen address was refused or could not be bound.
    #[error("{0}")]
    Listen(String),
    /// The server stopped with an I/O error.
    #[error("the server stopped: {0}")]
    Io(#[from] std::io::Error),
}

/// Why one request failed: a store refusal (shown with its message, beside the field it
/// names), or a step that could not run.
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    /// The operation refused or failed.
    #[error(transparent)]
    Store(#[from] tasks_core::Error),
    /// A conversation turn failed.
    #[error(transparent)]
    Chat(#[from] tasks_chat::turn::ChatError),
    /// A blocking step panicked or was cancelled.
    #[error("a page step failed: {0}")]
    Internal(String),
}

/// Everything a handler needs; cheap to clone.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    settings: Settings,
    access: Access,
    /// The store's change stamp, as the watcher thread last read it.
    stamp: Arc<std::sync::atomic::AtomicI64>,
    /// Answers local conversations' queues when a model is configured.
    runner: Option<Runner>,
    /// Wakes the worker after a write that queued something.
    wake: Notify,
}

impl AppState {
    /// Builds the state: opens the store (creating it if needed) for the watcher.
    pub fn new(config: &ServeConfig) -> Result<AppState, ServeError> {
        let csrf = random_token().map_err(ServeError::Listen)?;
        let stamp = watch(&config.settings)?;
        let runner = Runner::new(config.settings.clone(), None);
        let runner = runner.answers_anything().then_some(runner);
        Ok(AppState {
            inner: Arc::new(Inner {
                settings: config.settings.clone(),
                access: Access::new(config.token.clone(), csrf, config.listen),
                stamp,
                runner,
                wake: Notify::new(),
            }),
        })
    }

    pub(crate) fn access(&self) -> &Access {
        &self.inner.access
    }

    pub(crate) fn context(&self) -> Context {
        let s = &self.inner.settings;
        Context::new(s.fixed_now.unwrap_or_else(jiff::Timestamp::now), s.actor.clone(), s.zone.clone())
    }

    /// Whether queued messages are answered here (a model is configured).
    pub(crate) fn answers_queue(&self) -> bool {
        self.inner.runner.is_some()
    }

    pub(crate) fn settings(&self) -> &Settings {
        &self.inner.settings
    }

    /// The store's change counter as this server's watcher last read it.
    pub(crate) fn stamp(&self) -> Result<i64, WebError> {
        Ok(self.inner.stamp.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// Runs one store step on the blocking pool with its own connection.
    pub(crate) async fn step<T, F>(&self, f: F) -> Result<T, WebError>
    where
        T: Send + 'static,
        F: FnOnce(&mut dyn Engine, &Context) -> Result<T, WebError> + Send + 'static,
    {
        let settings = self.inner.settings.clone();
        let ctx = self.context();
        tokio::task::spawn_blocking(move || {
            let mut store = settings.open_store()?;
            f(&mut *store, &ctx)
        })
        .await
        .map_err(|e| WebError::Internal(e.to_string()))?
    }

    /// Tells the worker to look at the queues now.
    pub(crate) fn wake(&self) {
        self.inner.wake.notify_one();
    }
}

/// How often the watcher reads the store's change stamp. Pages poll `/api/stamp` every
/// 2 s; a quarter of a second keeps the stamp they see at most that much behind.
const WATCH_EVERY: Duration = Duration::from_millis(250);

/// Starts the watcher: a thread of its own that keeps one connection and reads the
/// store's change stamp every [`WATCH_EVERY`] (a PostgreSQL client must not block a
/// thread that drives the async runtime, and a stamp read per page is one query fewer).
/// It ends when the server's state is dropped. Returns the stamp it keeps up to date.
fn watch(settings: &Settings) -> Result<Arc<std::sync::atomic::AtomicI64>, ServeError> {
    use std::sync::atomic::{AtomicI64, Ordering};
    let settings = settings.clone();
    let (ready, first) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let opened = settings.open_store().and_then(|store| {
            let now = store.reader().change_stamp()?;
            Ok((store, now))
        });
        let (mut store, now) = match opened {
            Ok(v) => v,
            Err(e) => {
                let _ = ready.send(Err(e));
                return;
            }
        };
        let stamp = Arc::new(AtomicI64::new(now));
        if ready.send(Ok(Arc::clone(&stamp))).is_err() {
            return;
        }
        while Arc::strong_count(&stamp) > 1 {
            std::thread::sleep(WATCH_EVERY);
            match store.reader().change_stamp() {
                Ok(now) => stamp.store(now, Ordering::Relaxed),
                // A lost connection is made again on the next round.
                Err(_) => drop(store.reconnect_if_lost()),
            }
        }
    });
    match first.recv() {
        Ok(result) => Ok(result?),
        Err(_) => Err(ServeError::Io(std::io::Error::other("the store watcher stopped before it started"))),
    }
}

/// Answers queued items of local conversations until the server stops (only when a
/// model is configured; the daemon or the bot may answer them too — starting an item is
/// one transaction, so none is answered twice).
async fn worker(state: AppState) {
    let Some(runner) = state.inner.runner.clone() else { return };
    if let Err(e) = runner.recover().await {
        eprintln!("tasks serve: could not recover the queue: {e}");
    }
    loop {
        if let Err(e) = runner.work().await {
            eprintln!("tasks serve: answering the queue failed: {e}");
        }
        tokio::select! {
            () = state.inner.wake.notified() => {}
            () = tokio::time::sleep(WORKER_IDLE) => {}
        }
    }
}

/// Binds the listen address (checking the loopback rule first).
pub async fn bind(listen: SocketAddr, token_given: bool) -> Result<TcpListener, ServeError> {
    check_listen(listen, token_given).map_err(|e| ServeError::Listen(e.to_string()))?;
    TcpListener::bind(listen).await.map_err(|e| ServeError::Listen(format!("cannot listen on {listen}: {e}")))
}

/// Serves until `shutdown` completes.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let work = tokio::spawn(worker(state.clone()));
    let app = router(state);
    let result = axum::serve(listener, app).with_graceful_shutdown(shutdown).await;
    work.abort();
    Ok(result?)
}
