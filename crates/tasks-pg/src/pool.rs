//! A small pool of team-store connections for the long-lived processes (MCP, the
//! daemon, the bot, the web page): a request takes an idle connection (or opens one),
//! uses it on one thread, and gives it back. Opening a connection costs a TCP (and
//! perhaps TLS) handshake, authentication and a schema check — several milliseconds,
//! more than most operations take — so a process that answers many requests keeps them.
//!
//! An idle connection is pinged when it is next taken, and one the server dropped is
//! reconnected ([`PgStore::ping_or_reconnect`], with backoff, said once on stderr).

use std::sync::Mutex;

use tasks_core::Result;

use crate::PgStore;

/// Most idle connections kept; more may be open at once while requests run, and are
/// closed when given back to a full pool. Two cores here, and a process's requests are
/// mostly one at a time: four covers a burst without holding server slots for nothing.
pub const MAX_IDLE: usize = 4;

/// Idle connections to one team store.
pub struct PgPool {
    url: String,
    idle: Mutex<Vec<PgStore>>,
}

impl std::fmt::Debug for PgPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgPool").field("target", &crate::redacted(&self.url)).finish()
    }
}

impl PgPool {
    /// A pool for `url`; no connection is opened until the first [`PgPool::get`].
    pub fn new(url: &str) -> PgPool {
        PgPool { url: url.to_string(), idle: Mutex::new(Vec::new()) }
    }

    /// Takes a connection: an idle one (reconnected if the server dropped it) or a new
    /// one. Give it back with [`PgPool::put`].
    pub fn get(&self) -> Result<PgStore> {
        let idle = self.idle.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).pop();
        match idle {
            Some(mut store) => {
                store.ping_or_reconnect()?;
                Ok(store)
            }
            None => PgStore::connect(&self.url),
        }
    }

    /// Gives a connection back (closed when the pool is full).
    pub fn put(&self, store: PgStore) {
        let mut idle = self.idle.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if idle.len() < MAX_IDLE {
            idle.push(store);
        }
    }

    /// Runs `f` on a pooled connection and gives it back, whatever `f` answered.
    pub fn with<T>(&self, f: impl FnOnce(&mut PgStore) -> T) -> Result<T> {
        let mut store = self.get()?;
        let out = f(&mut store);
        self.put(store);
        Ok(out)
    }
}

impl Drop for PgPool {
    /// Closes the idle connections on a thread of their own: the `postgres` crate's
    /// client blocks on its runtime when dropped, which panics on a thread that already
    /// drives an async runtime (the MCP server drops its pool there when stdin closes).
    fn drop(&mut self) {
        let idle = std::mem::take(self.idle.get_mut().unwrap_or_else(|poisoned| poisoned.into_inner()));
        if !idle.is_empty() {
            let _ = std::thread::spawn(move || drop(idle)).join();
        }
    }
}

/// A connection taken from a pool, given back when dropped: a store for one request
/// (the bot runner's steps open one each).
pub struct Pooled {
    pool: std::sync::Arc<PgPool>,
    store: Option<PgStore>,
}

impl PgPool {
    /// Takes a connection that goes back to the pool when dropped.
    pub fn take(self: &std::sync::Arc<Self>) -> Result<Pooled> {
        Ok(Pooled { pool: std::sync::Arc::clone(self), store: Some(self.get()?) })
    }
}

impl Pooled {
    fn store(&mut self) -> &mut PgStore {
        self.store.as_mut().expect("a Pooled holds its store until dropped")
    }
}

impl Drop for Pooled {
    fn drop(&mut self) {
        if let Some(store) = self.store.take() {
            self.pool.put(store);
        }
    }
}

impl tasks_core::port::Engine for Pooled {
    fn reader(&self) -> &dyn tasks_core::port::Reads {
        self.store.as_ref().expect("a Pooled holds its store until dropped").reader()
    }

    fn run_write(
        &mut self,
        end: tasks_core::port::WriteEnd,
        f: &mut dyn FnMut(&dyn tasks_core::port::Writes) -> Result<()>,
    ) -> Result<()> {
        self.store().run_write(end, f)
    }

    fn run_batch(&mut self, f: &mut dyn FnMut(&mut dyn tasks_core::port::Engine) -> Result<()>) -> Result<()> {
        self.store().run_batch(f)
    }

    fn reconnect_if_lost(&mut self) -> Result<()> {
        self.store().reconnect_if_lost()
    }
}
