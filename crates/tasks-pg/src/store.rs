//! Connecting, migrating and the one way to write: a transaction that is retried when
//! PostgreSQL reports a serialization failure or a deadlock.

use postgres::{Client, NoTls, Transaction};

use crate::engine::{Pg, lost};
use tasks_core::{Error, Result};

/// The newest schema this build knows (numbered files in `migrations/`, forward-only).
pub const SCHEMA_VERSION: i64 = MIGRATIONS[MIGRATIONS.len() - 1].0;

/// The migrations, in order: (version, SQL).
const MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("migrations/0001_team.sql")),
    (2, include_str!("migrations/0002_words_and_notes.sql")),
    (3, include_str!("migrations/0003_run_leases.sql")),
];

/// Advisory lock taken while migrating, so two machines starting at once on an empty
/// database do not both create the schema.
const MIGRATE_LOCK: i64 = 0x7461_736b_0001;

/// Advisory lock (transaction-scoped) of every write that checks before it inserts: the
/// duplicate check before a new task, the cycle check before a link. SQLite gives the
/// same guarantee with one writer at a time; here only those writes queue, while
/// claims, releases and reads run side by side.
pub(crate) const CHECKED_WRITE_LOCK: i64 = 0x7461_736b_0002;

/// How many times a transaction is run again after a serialization failure or deadlock.
pub(crate) const RETRIES: usize = 8;

/// How many times a long-lived process tries to reconnect after the server dropped its
/// connection, and the first wait between tries (doubled each time: 0.2 s, 0.4 s …
/// 6.4 s, about 13 s in all — long enough for a server restart or a failover, short
/// enough that a command still fails in human time when the server is gone).
const RECONNECT_TRIES: u32 = 7;
const RECONNECT_FIRST_WAIT: std::time::Duration = std::time::Duration::from_millis(200);

/// How long a liveness ping may take before the connection counts as lost.
const PING_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// Returns true when `text` names a PostgreSQL store (`postgres://…`, `postgresql://…`).
pub fn is_postgres_url(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with("postgres://") || t.starts_with("postgresql://")
}

/// Returns the URL without its password and query (which may hold `password=`): what
/// messages and `--json` may show.
pub fn redacted(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("postgres", url));
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    let rest = match rest.rsplit_once('@') {
        Some((user, host)) => format!("{}@{host}", user.split(':').next().unwrap_or("")),
        None => rest.to_string(),
    };
    format!("{scheme}://{rest}")
}

/// Removes `name=value` from a URL's query (a libpq parameter the `postgres` crate
/// does not read) and returns the URL without it, and the value.
fn take_param(url: &str, name: &str) -> (String, Option<String>) {
    let Some((base, query)) = url.split_once('?') else { return (url.to_string(), None) };
    let mut value = None;
    let kept: Vec<&str> = query
        .split('&')
        .filter(|pair| match pair.split_once('=') {
            Some((k, v)) if k == name => {
                value = Some(v.to_string());
                false
            }
            _ => true,
        })
        .collect();
    let url = if kept.is_empty() { base.to_string() } else { format!("{base}?{}", kept.join("&")) };
    (url, value)
}

/// The TLS connector of `sslmode=require`: rustls with the CA certificates of
/// `root_cert` (a PEM file), or else the system's.
fn tls_connector(root_cert: Option<&str>) -> std::result::Result<tokio_postgres_rustls::MakeRustlsConnect, String> {
    use rustls::pki_types::CertificateDer;
    use rustls::pki_types::pem::PemObject;
    let mut roots = rustls::RootCertStore::empty();
    match root_cert {
        Some(path) => {
            for cert in CertificateDer::pem_file_iter(path).map_err(|e| format!("sslrootcert {path}: {e}"))? {
                let cert = cert.map_err(|e| format!("sslrootcert {path}: {e}"))?;
                roots.add(cert).map_err(|e| format!("sslrootcert {path}: {e}"))?;
            }
        }
        None => {
            let found = rustls_native_certs::load_native_certs();
            for cert in found.certs {
                // A system certificate rustls cannot read is skipped, as browsers do.
                let _ = roots.add(cert);
            }
        }
    }
    if roots.is_empty() {
        return Err("sslmode=require, but no CA certificate to verify the server with: give sslrootcert=PATH".into());
    }
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(tokio_postgres_rustls::MakeRustlsConnect::new(config))
}

/// Returns an error's text with its cause (the `postgres` crate's top-level messages,
/// "error performing TLS handshake", say little alone).
fn with_cause(e: &postgres::Error) -> String {
    match std::error::Error::source(e) {
        Some(cause) => format!("{e}: {cause}"),
        None => e.to_string(),
    }
}

/// A connection to the team store.
pub struct PgStore {
    /// The connection, as the port's reads outside a write.
    pub(crate) conn: Pg<Client>,
    /// The connection string as given (with its password: never shown; for reconnects).
    url: String,
    target: String,
    /// How many tasks `connect` reindexed because an older version wrote their index.
    reindexed: Option<i64>,
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStore").field("target", &self.target).finish()
    }
}

/// Turns a PostgreSQL error into the core's, keeping the server's message and code.
pub(crate) fn pg(e: postgres::Error) -> Error {
    match e.as_db_error() {
        Some(db) => Error::Postgres(format!("{} ({})", db.message(), db.code().code())),
        None => match std::error::Error::source(&e) {
            Some(cause) => Error::Postgres(format!("{e}: {cause}")),
            None => Error::Postgres(e.to_string()),
        },
    }
}

pub(crate) fn retryable(e: &postgres::Error) -> bool {
    use postgres::error::SqlState;
    matches!(e.code(), Some(c) if *c == SqlState::T_R_SERIALIZATION_FAILURE || *c == SqlState::T_R_DEADLOCK_DETECTED)
}

/// A failure inside a write: ours (returned as is) or the server's (maybe retried).
pub(crate) enum TxError {
    Core(Error),
    Db(postgres::Error),
}

impl From<postgres::Error> for TxError {
    fn from(e: postgres::Error) -> TxError {
        TxError::Db(e)
    }
}

impl From<Error> for TxError {
    fn from(e: Error) -> TxError {
        TxError::Core(e)
    }
}

/// The result type inside a write.
pub(crate) type TxResult<T> = std::result::Result<T, TxError>;

impl TxError {
    /// Returns the error as the store reports it outside a write.
    pub(crate) fn into_error(self) -> Error {
        match self {
            TxError::Core(e) => e,
            TxError::Db(e) => pg(e),
        }
    }
}

impl PgStore {
    /// Connects to `url` and brings the schema up to date (refusing a newer one).
    ///
    /// TLS is chosen by the connection string, as with libpq: `sslmode=require`
    /// connects over TLS and verifies the server's certificate and host name (what
    /// libpq calls `verify-full`: rustls never connects unverified) against the CA file
    /// of `sslrootcert=PATH`, else the system's CA store; `prefer` (the default) and
    /// `disable` connect without TLS — for loopback, a socket, or a VPN.
    pub fn connect(url: &str) -> Result<PgStore> {
        let target = redacted(url);
        let mut client = open_client(url, &target)?;
        migrate(&mut client, &target)?;
        // An index an older version wrote is rebuilt once, as SQLite's writing open does;
        // a current one costs one read here.
        let mut store =
            PgStore { conn: Pg::new(client, Default::default()), url: url.to_string(), target, reindexed: None };
        if store.read(crate::dedup::index_version)? < tasks_core::dedup::INDEX_VERSION {
            store.reindexed = store.write(crate::dedup::reindex_if_outdated)?;
        }
        Ok(store)
    }

    /// Returns how many tasks [`PgStore::connect`] reindexed because an older version of
    /// `tasks` wrote their duplicate-check index.
    pub fn reindexed(&self) -> Option<i64> {
        self.reindexed
    }

    /// Refreshes the planner's statistics of every table (after a bulk restore).
    pub(crate) fn analyze(&mut self) -> Result<()> {
        self.client().batch_execute("ANALYZE").map_err(pg)
    }

    fn client(&mut self) -> &mut Client {
        self.conn.get_mut()
    }

    /// Connects again when the server dropped the connection (a restart, a failover,
    /// `pg_terminate_backend`), trying [`RECONNECT_TRIES`] times with a doubling wait;
    /// says so once on stderr. A live connection is left as it is.
    pub fn ensure_connected(&mut self) -> Result<()> {
        if !self.conn.get_mut().is_closed() && !self.conn.found_closed() {
            return Ok(());
        }
        self.reconnect()
    }

    /// Asks the server whether this connection still lives (one empty round trip) and
    /// reconnects when it does not: what a long-lived process does before a request, so
    /// a connection the server ended while it sat idle (`pg_terminate_backend`, a
    /// restart) never fails the request.
    pub fn ping_or_reconnect(&mut self) -> Result<()> {
        if !self.conn.found_closed() && self.conn.get_mut().is_valid(PING_TIMEOUT).is_ok() {
            return Ok(());
        }
        self.reconnect()
    }

    fn reconnect(&mut self) -> Result<()> {
        eprintln!("tasks: the connection to {} was lost; reconnecting", self.target);
        let mut wait = RECONNECT_FIRST_WAIT;
        let mut last = None;
        for attempt in 1..=RECONNECT_TRIES {
            match open_client(&self.url, &self.target) {
                Ok(client) => {
                    // Prepared statements belonged to the old session.
                    self.conn = Pg::new(client, Default::default());
                    if attempt > 1 {
                        eprintln!("tasks: reconnected to {} (try {attempt})", self.target);
                    }
                    return Ok(());
                }
                Err(e) => last = Some(e),
            }
            std::thread::sleep(wait);
            wait *= 2;
        }
        Err(last.unwrap_or_else(|| Error::Postgres("cannot reconnect".into())))
    }

    /// Returns whether this connection is encrypted (TLS), as the server sees it.
    pub fn uses_tls(&mut self) -> Result<bool> {
        let row = self
            .client()
            .query_one("SELECT coalesce((SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()), false)", &[])
            .map_err(pg)?;
        Ok(row.get(0))
    }

    /// Returns a pool of connections to this same store (for a long-lived process that
    /// started with this one: the password stays inside).
    pub fn pool(&self) -> crate::PgPool {
        crate::PgPool::new(&self.url)
    }

    /// Opens a connection of its own that listens on `channel` (PostgreSQL's
    /// LISTEN/NOTIFY), for a process that sleeps until something changed.
    pub fn listen(&self, channel: &str) -> Result<Listener> {
        Listener::open(&self.url, &self.target, channel)
    }

    /// Returns where the store is, without credentials.
    pub fn target(&self) -> &str {
        &self.target
    }

    /// Runs `f` in a READ COMMITTED transaction and commits, running it again when the
    /// server reports a serialization failure or a deadlock.
    pub(crate) fn write<T>(&mut self, f: impl FnMut(&mut Transaction<'_>) -> TxResult<T>) -> Result<T> {
        self.write_or_rehearse(true, f)
    }

    /// Like [`PgStore::write`]; with `commit` false the transaction is rolled back (a
    /// dry run sees everything the write would do, and nothing stays).
    pub(crate) fn write_or_rehearse<T>(
        &mut self,
        commit: bool,
        mut f: impl FnMut(&mut Transaction<'_>) -> TxResult<T>,
    ) -> Result<T> {
        let mut attempt = 0;
        loop {
            attempt += 1;
            let mut tx = self.client().transaction().map_err(pg)?;
            let outcome = f(&mut tx).and_then(|v| {
                if commit {
                    tx.commit()?;
                } else {
                    tx.rollback()?;
                }
                Ok(v)
            });
            match outcome {
                Ok(v) => return Ok(v),
                Err(TxError::Core(e)) => return Err(e),
                Err(TxError::Db(e)) if retryable(&e) && attempt < RETRIES => continue,
                Err(TxError::Db(e)) => return Err(pg(e)),
            }
        }
    }

    /// Runs a read in one transaction (a consistent snapshot is not needed by the
    /// reads here; one statement each).
    pub(crate) fn read<T>(&mut self, f: impl FnOnce(&mut Client) -> TxResult<T>) -> Result<T> {
        f(self.client()).map_err(TxError::into_error)
    }
}

/// The channel a write that adds or changes a schedule notifies on commit: the team
/// daemon wakes on it instead of waiting out its poll.
pub const SCHEDULES_CHANNEL: &str = "tasks_schedules";

/// A connection that waits for notifications on one channel.
pub struct Listener {
    client: Client,
    url: String,
    target: String,
    channel: String,
}

impl Listener {
    fn open(url: &str, target: &str, channel: &str) -> Result<Listener> {
        let mut client = open_client(url, target)?;
        client.batch_execute(&format!("LISTEN {channel}")).map_err(pg)?;
        Ok(Listener { client, url: url.to_string(), target: target.to_string(), channel: channel.to_string() })
    }

    /// Waits up to `timeout` for a notification; returns whether one came (several
    /// that came together count once). A lost connection is made again (and listens
    /// again) before the next wait.
    pub fn wait(&mut self, timeout: std::time::Duration) -> Result<bool> {
        use postgres::fallible_iterator::FallibleIterator as _;
        let deadline = std::time::Instant::now() + timeout;
        loop {
            if self.client.is_closed() {
                // The server ended the session (a restart, `pg_terminate_backend`):
                // listen again on a new one; the caller plans once, in case a
                // notification was lost meanwhile.
                *self = Listener::open(&self.url, &self.target, &self.channel)?;
                return Ok(true);
            }
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return Ok(false);
            }
            // In slices: a closed connection does not end the wait by itself.
            let waited = {
                let mut notes = self.client.notifications();
                let waited = notes.timeout_iter(left.min(LISTEN_SLICE)).next().map(|n| n.is_some());
                // Drain what else is waiting: one planning pass answers them all.
                while let Ok(Some(_)) = notes.iter().next() {}
                waited
            };
            match waited {
                Ok(true) => return Ok(true),
                Ok(false) => {}
                Err(e) if lost(&e) => {}
                Err(e) => return Err(pg(e)),
            }
        }
    }
}

/// How long one slice of a listener's wait lasts: how soon it sees that the server
/// ended its connection.
const LISTEN_SLICE: std::time::Duration = std::time::Duration::from_secs(1);

/// Opens a connection: TLS as the connection string says (see [`PgStore::connect`]).
fn open_client(url: &str, target: &str) -> Result<Client> {
    let open = |reason: String| Error::StoreOpen { path: target.to_string(), reason };
    let (url, root_cert) = take_param(url, "sslrootcert");
    let config: postgres::Config = url.parse().map_err(|e: postgres::Error| open(e.to_string()))?;
    let connected = if matches!(config.get_ssl_mode(), postgres::config::SslMode::Require) {
        let tls = tls_connector(root_cert.as_deref()).map_err(&open)?;
        config.connect(tls)
    } else {
        config.connect(NoTls)
    };
    connected.map_err(|e| open(with_cause(&e)))
}

/// Applies the missing migrations under an advisory lock; a newer schema is refused.
fn migrate(client: &mut Client, target: &str) -> Result<()> {
    let current = |c: &mut Client| -> std::result::Result<Option<i64>, postgres::Error> {
        let exists: bool = c.query_one("SELECT to_regclass('schema_migrations') IS NOT NULL", &[])?.get(0);
        if !exists {
            return Ok(None);
        }
        Ok(c.query_one("SELECT max(version) FROM schema_migrations", &[])?.get(0))
    };
    let found = current(client).map_err(pg)?;
    if let Some(v) = found
        && v > SCHEMA_VERSION
    {
        return Err(Error::StoreTooNew { path: target.to_string(), found: v, supported: SCHEMA_VERSION });
    }
    if found == Some(SCHEMA_VERSION) {
        return Ok(());
    }
    client.execute("SELECT pg_advisory_lock($1)", &[&MIGRATE_LOCK]).map_err(pg)?;
    let outcome = (|| -> std::result::Result<(), postgres::Error> {
        client.batch_execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)",
        )?;
        let have: i64 = client.query_one("SELECT coalesce(max(version), 0) FROM schema_migrations", &[])?.get(0);
        for (version, sql) in MIGRATIONS.iter().filter(|(v, _)| *v > have) {
            let mut tx = client.transaction()?;
            tx.batch_execute(sql)?;
            tx.execute(
                "INSERT INTO schema_migrations (version, applied_at)
                 VALUES ($1, (extract(epoch from now()) * 1000)::bigint)",
                &[version],
            )?;
            tx.commit()?;
        }
        Ok(())
    })();
    let unlocked = client.execute("SELECT pg_advisory_unlock($1)", &[&MIGRATE_LOCK]);
    outcome.map_err(pg)?;
    unlocked.map_err(pg)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_is_shown_without_its_password_or_query() {
        assert_eq!(
            redacted("postgres://bob:s3cret@db.lan:5432/tasks?sslmode=disable"),
            "postgres://bob@db.lan:5432/tasks"
        );
        assert_eq!(redacted("postgresql://db.lan/tasks?password=s3cret"), "postgresql://db.lan/tasks");
        assert_eq!(redacted("postgres://a:b@c/d"), "postgres://a@c/d");
    }

    #[test]
    fn sslrootcert_is_taken_out_of_the_query_and_the_rest_kept() {
        let (url, ca) =
            take_param("postgres://db/t?sslmode=require&sslrootcert=/etc/ca.pem&application_name=x", "sslrootcert");
        assert_eq!(
            (url.as_str(), ca.as_deref()),
            ("postgres://db/t?sslmode=require&application_name=x", Some("/etc/ca.pem"))
        );
        let (url, ca) = take_param("postgres://db/t?sslrootcert=a.pem", "sslrootcert");
        assert_eq!((url.as_str(), ca.as_deref()), ("postgres://db/t", Some("a.pem")));
        assert_eq!(take_param("postgres://db/t", "sslrootcert"), ("postgres://db/t".to_string(), None));
    }

    #[test]
    fn only_postgres_urls_select_postgres() {
        assert!(is_postgres_url("postgres://x/y"));
        assert!(is_postgres_url("postgresql://x/y"));
        assert!(!is_postgres_url("/home/me/tasks.db"));
        assert!(!is_postgres_url("postgres.db"));
    }
}
