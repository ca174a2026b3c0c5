//! A throwaway PostgreSQL server for tests, from Debian's packages.
//!
//! Tests of the PostgreSQL store need a real server, and a shared one would let tests
//! see each other's data and leave state behind. So each server here is a fresh cluster
//! in its own temporary directory, listening only on 127.0.0.1 on a free port with
//! `trust` authentication (no password to manage), tuned for speed over durability
//! (`fsync=off`), and removed afterwards. Where PostgreSQL is not installed (a clean CI
//! machine) the test records a visible skip through [`crate::skip::skipped`] instead of
//! failing; `scripts/install-test-tools.sh` installs it.
//!
//! initdb and pg_ctl refuse to run as root, and containers often run tests as root: then
//! every PostgreSQL program runs as the `postgres` OS user (created by Debian's package)
//! through `runuser`, in a directory handed over to that user.

use std::io::ErrorKind;
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt as _;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{SystemTime, UNIX_EPOCH};

/// The database role every cluster is created with (`initdb -U`), so URLs never depend
/// on who runs the tests.
const USER: &str = "tasks";

/// The OS user PostgreSQL's programs run as when the tests run as root.
const OS_USER: &str = "postgres";

/// The skip reason when no PostgreSQL binaries are found; it names the fix.
const NOT_INSTALLED: &str =
    "PostgreSQL not installed (scripts/install-test-tools.sh installs it from Debian's packages)";

/// How many times a start is tried on a fresh port when the chosen port was taken
/// between picking it and the postmaster binding it.
const START_ATTEMPTS: u32 = 3;

/// A running PostgreSQL cluster in a temporary directory; dropping it stops the server
/// and removes the directory, so a test leaves nothing behind.
#[derive(Debug)]
pub struct TestPostgres {
    /// The temporary directory: the cluster (`data/`), the server log (`log`) and the
    /// Unix socket live here, so removing it removes everything.
    dir: PathBuf,
    /// The cluster's data directory (`dir/data`), what `pg_ctl -D` needs.
    data: PathBuf,
    /// The TCP port on 127.0.0.1 the server listens on.
    port: u16,
    /// The directory holding initdb, pg_ctl and psql.
    bin: PathBuf,
    /// Whether the programs run as the `postgres` OS user (the tests run as root).
    as_os_user: bool,
    /// The background process that stops the server and removes `dir` once the test
    /// process is gone (needed for [`shared`], whose server is never dropped); a dropped
    /// server ends it, since there is then nothing left for it to do.
    watchdog: Mutex<Option<Child>>,
}

impl TestPostgres {
    /// Starts a fresh cluster, or returns `None` after recording the skip of `test` via
    /// [`crate::skip::skipped`] (PostgreSQL missing or not startable here), so a test
    /// without a server shows up as skipped rather than failed or silently passed.
    pub fn start(test: &str) -> Option<TestPostgres> {
        match TestPostgres::try_start() {
            Ok(pg) => Some(pg),
            Err(reason) => {
                crate::skip::skipped(test, &reason);
                None
            }
        }
    }

    /// Creates a new empty database `name` (`CREATE DATABASE` via psql) and returns its
    /// URL, `postgres://tasks@127.0.0.1:<port>/<name>` (no password: trust on loopback
    /// only), so each test gets its own database on a shared server.
    ///
    /// Panics when `name` is not `[a-z0-9_]+` (a misuse in test code) or psql fails (a
    /// setup failure once the server runs is a real failure, shown with psql's stderr).
    pub fn create_database(&self, name: &str) -> String {
        let valid = !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        assert!(valid, "database name {name:?} must be [a-z0-9_]+");
        let out = self
            .psql("postgres")
            .args(["-c", &format!("CREATE DATABASE \"{name}\"")])
            .output()
            .unwrap_or_else(|e| panic!("running psql from {}: {e}", self.bin.display()));
        assert!(
            out.status.success(),
            "CREATE DATABASE {name} failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
        format!("postgres://{USER}@127.0.0.1:{}/{name}", self.port)
    }

    /// Returns the TCP port on 127.0.0.1, for tests that build their own connection.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Returns the directory holding initdb, pg_ctl and psql, for tests that run other
    /// PostgreSQL programs (pg_dump …) of the same version as the server.
    pub fn bin_dir(&self) -> &Path {
        &self.bin
    }

    /// Starts a cluster, or says why not (the skip reason); never panics, since a
    /// machine that cannot run PostgreSQL is a skip, not a failure.
    fn try_start() -> Result<TestPostgres, String> {
        let bin = find_bin_dir()?;
        let as_os_user = running_as_root();
        if as_os_user && !os_user_exists() {
            return Err(format!(
                "running as root, and initdb refuses root, but there is no `{OS_USER}` OS user to run it as \
                 (Debian's postgresql package creates it)"
            ));
        }
        let dir = make_temp_dir(as_os_user)?;
        let mut pg = TestPostgres { data: dir.join("data"), dir, port: 0, bin, as_os_user, watchdog: Mutex::new(None) };
        // From here on, dropping `pg` on an error stops whatever started and removes
        // the directory.
        if as_os_user {
            let out = quiet(Command::new("chown").args(["-R", OS_USER]).arg(&pg.dir)).output();
            check(out, "chown")?;
        }
        pg.spawn_watchdog();
        pg.initdb()?;
        for attempt in 1..=START_ATTEMPTS {
            pg.port = free_port()?;
            match pg.pg_ctl_start() {
                Ok(()) => return Ok(pg),
                Err(reason) if attempt < START_ATTEMPTS && reason.contains("already in use") => {
                    // Someone took the port after we picked it: stop anything half
                    // started and try another port.
                    pg.stop();
                }
                Err(reason) => return Err(reason),
            }
        }
        Err("PostgreSQL did not start".to_string())
    }

    /// Runs initdb in `dir/data`: role `tasks`, trust authentication, UTF-8, no fsync.
    /// The C.UTF-8 locale is tried first (sorting like production's UTF-8 clusters do
    /// not matter here, but a UTF-8 ctype does), then plain C where it is missing.
    fn initdb(&self) -> Result<(), String> {
        let mut last = String::new();
        for locale in ["--locale=C.UTF-8", "--locale=C"] {
            let out = self
                .command("initdb")
                .arg("-D")
                .arg(&self.data)
                .args(["-U", USER, "-A", "trust", "--no-sync", "-E", "UTF8", locale])
                .output();
            match check(out, "initdb") {
                Ok(()) => return Ok(()),
                Err(reason) => {
                    last = reason;
                    // initdb removes what it created on failure; make sure before retrying.
                    let _ = std::fs::remove_dir_all(&self.data);
                }
            }
        }
        Err(last)
    }

    /// Starts the server with `pg_ctl start -w` on `self.port`, socket in `dir`.
    /// On failure the reason carries the last lines of the server log, so a CI run
    /// shows why without anyone logging into the machine.
    fn pg_ctl_start(&self) -> Result<(), String> {
        let options = format!(
            "-c listen_addresses=127.0.0.1 -p {} -k '{}' -c fsync=off -c synchronous_commit=off \
             -c full_page_writes=off -c max_connections=200 -c shared_buffers=128MB",
            self.port,
            self.dir.display()
        );
        let out = self
            .command("pg_ctl")
            .arg("-D")
            .arg(&self.data)
            .args(["-w", "-t", "60", "-l"])
            .arg(self.dir.join("log"))
            .args(["-o", &options, "start"])
            .output();
        check(out, "pg_ctl start").map_err(|reason| format!("{reason}; server log: {}", self.log_tail(20)))
    }

    /// Returns the last `n` lines of the server log (or why there are none), on one line.
    fn log_tail(&self, n: usize) -> String {
        match std::fs::read_to_string(self.dir.join("log")) {
            Ok(text) => tail(&text, n),
            Err(e) => format!("(no log: {e})"),
        }
    }

    /// Stops the server at once (`-m immediate`: the data is thrown away anyway),
    /// ignoring errors: there may be no server running.
    fn stop(&self) {
        let _ = self.command("pg_ctl").arg("-D").arg(&self.data).args(["stop", "-m", "immediate"]).output();
    }

    /// Returns a psql command connected over TCP to `db` as `tasks`, stopping at the
    /// first error, reading no `.psqlrc` (a user's settings must not change the output).
    fn psql(&self, db: &str) -> Command {
        let mut cmd = self.command("psql");
        cmd.args(["-X", "-h", "127.0.0.1", "-p", &self.port.to_string(), "-U", USER, "-d", db])
            .args(["-v", "ON_ERROR_STOP=1"]);
        cmd
    }

    /// Returns a command running PostgreSQL's `program` from the bin dir: as the
    /// `postgres` OS user when we are root, from `dir` (a directory that user can
    /// enter), with no stdin (nothing may wait for a password prompt).
    fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        let mut cmd = if self.as_os_user {
            let mut c = Command::new("runuser");
            c.args(["-u", OS_USER, "--"]).arg(path);
            c
        } else {
            Command::new(path)
        };
        cmd.current_dir(&self.dir).stdin(Stdio::null());
        cmd
    }

    /// Starts the watchdog: a `sh` in its own process group (so a Ctrl-C to the test
    /// does not reach it) that polls the test process every second and, once it is gone,
    /// stops the server and removes the directory. A server of [`shared`] lives in a
    /// static, which is never dropped, so this is its only cleanup; for other servers it
    /// covers a killed test process. Failing to start it only risks a leftover server.
    fn spawn_watchdog(&self) {
        let stop = self.command("pg_ctl");
        let mut argv: Vec<&std::ffi::OsStr> = vec![stop.get_program()];
        argv.extend(stop.get_args());
        argv.extend(["-D".as_ref(), self.data.as_os_str(), "stop".as_ref(), "-m".as_ref(), "immediate".as_ref()]);
        // Paths travel as arguments ($1, $2, "$@"), never spliced into the script, so no
        // quoting can go wrong.
        let script = r#"p=$1; d=$2; shift 2
while kill -0 "$p" 2>/dev/null; do sleep 1; done
cd / && "$@" >/dev/null 2>&1; rm -rf "$d""#;
        let spawned = Command::new("sh")
            .args(["-c", script, "tasks-pg-watchdog", &std::process::id().to_string()])
            .arg(&self.dir)
            .args(argv)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn();
        if let (Ok(child), Ok(mut slot)) = (spawned, self.watchdog.lock()) {
            *slot = Some(child);
        }
    }
}

impl Drop for TestPostgres {
    /// Stops the server, ends the watchdog (its work is done) and removes the directory;
    /// errors are ignored, since a failing cleanup must not turn a test red.
    fn drop(&mut self) {
        self.stop();
        if let Ok(mut slot) = self.watchdog.lock()
            && let Some(mut child) = slot.take()
        {
            let _ = child.kill();
            let _ = child.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Returns the one server of this test process, started on first use, or `None` after
/// recording the skip of `test`. Starting a cluster takes a second or two, so tests that
/// each use their own database ([`TestPostgres::create_database`]) share one server.
/// It is never dropped; its watchdog stops it within about a second of the process
/// exiting.
pub fn shared(test: &str) -> Option<&'static TestPostgres> {
    static SHARED: OnceLock<Result<TestPostgres, String>> = OnceLock::new();
    match SHARED.get_or_init(TestPostgres::try_start) {
        Ok(pg) => Some(pg),
        Err(reason) => {
            crate::skip::skipped(test, reason);
            None
        }
    }
}

/// Returns the directory holding initdb, pg_ctl and psql: `$TASKS_PG_BIN`, else the
/// newest `/usr/lib/postgresql/<version>/bin` (Debian's layout, not on PATH), else the
/// directory of `initdb` on PATH.
fn find_bin_dir() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os("TASKS_PG_BIN").filter(|d| !d.is_empty()) {
        let dir = PathBuf::from(dir);
        return if has_programs(&dir) {
            Ok(dir)
        } else {
            Err(format!("TASKS_PG_BIN={} holds no initdb, pg_ctl and psql", dir.display()))
        };
    }
    let mut versions: Vec<(Vec<u32>, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let version = name.split('.').map(|part| part.parse().ok()).collect::<Option<Vec<u32>>>()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").is_file().then_some((version, bin))
        })
        .collect();
    versions.sort();
    if let Some((_, bin)) = versions.pop() {
        return if has_programs(&bin) { Ok(bin) } else { Err(format!("{} lacks pg_ctl or psql", bin.display())) };
    }
    let on_path = std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).find(|dir| dir.join("initdb").is_file()))
        .unwrap_or_default();
    match on_path {
        Some(dir) if has_programs(&dir) => Ok(dir),
        Some(dir) => Err(format!("{} has initdb but lacks pg_ctl or psql", dir.display())),
        None => Err(NOT_INSTALLED.to_string()),
    }
}

/// Tells whether `dir` holds the three programs this module runs.
fn has_programs(dir: &Path) -> bool {
    ["initdb", "pg_ctl", "psql"].iter().all(|p| dir.join(p).is_file())
}

/// Tells whether this process runs as root (effective uid 0), where initdb refuses to
/// run. Reads `/proc/self/status` (no libc binding needed), else asks `id -u`.
fn running_as_root() -> bool {
    if let Ok(status) = std::fs::read_to_string("/proc/self/status")
        && let Some(uids) = status.lines().find_map(|l| l.strip_prefix("Uid:"))
    {
        // Real, effective, saved, filesystem uid: the effective one is what counts.
        return uids.split_whitespace().nth(1) == Some("0");
    }
    Command::new("id")
        .arg("-u")
        .stdin(Stdio::null())
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
        .unwrap_or(false)
}

/// Tells whether the `postgres` OS user exists (needed to run initdb as root).
fn os_user_exists() -> bool {
    quiet(Command::new("id").arg(OS_USER)).status().map(|s| s.success()).unwrap_or(false)
}

/// Creates a fresh, uniquely named directory, mode 0755 so the `postgres` user can
/// enter it once handed over. Under `/tmp` when root (a root `$TMPDIR` may not be
/// enterable by that user) or when `$TMPDIR` is long (the Unix socket path inside must
/// stay under the kernel's ~107 bytes); else under the usual temp dir.
fn make_temp_dir(as_os_user: bool) -> Result<PathBuf, String> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let tmp = std::env::temp_dir();
    let base = if as_os_user || tmp.as_os_str().len() > 60 { PathBuf::from("/tmp") } else { tmp };
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = base.join(format!("tasks-pg-{}-{nanos}-{n}", std::process::id()));
        match std::fs::create_dir(&dir) {
            Ok(()) => {
                std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755))
                    .map_err(|e| format!("chmod {}: {e}", dir.display()))?;
                return Ok(dir);
            }
            Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("creating {}: {e}", dir.display())),
        }
    }
}

/// Returns a free TCP port on 127.0.0.1: bind port 0, read what the kernel chose, let
/// it go. Another process may take it before the postmaster binds; the start retries.
fn free_port() -> Result<u16, String> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("finding a free port on 127.0.0.1: {e}"))
}

/// Gives `cmd` no stdin and captured output, for helpers whose output is not shown.
fn quiet(cmd: &mut Command) -> &mut Command {
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped())
}

/// Turns a finished command into `Ok` or a reason naming `what` with the tail of its
/// output (PostgreSQL's programs explain themselves on stderr, sometimes stdout).
fn check(out: std::io::Result<Output>, what: &str) -> Result<(), String> {
    let out = out.map_err(|e| format!("could not run {what}: {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    Err(format!("{what} failed ({}): {}", out.status, tail(&text, 20)))
}

/// Returns the last `n` non-empty lines of `text` joined by ` | `: a skip reason must
/// stay one line, since the skip log is counted and sorted by line (`.ci/run`).
fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    lines[lines.len().saturating_sub(n)..].join(" | ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A started server answers queries in a database it created, and leaves no
    /// directory behind once dropped.
    #[test]
    fn pg_harness_starts() {
        let Some(pg) = TestPostgres::start("pg_harness_starts") else { return };
        let url = pg.create_database("harness_check");
        assert_eq!(url, format!("postgres://tasks@127.0.0.1:{}/harness_check", pg.port()));
        let out = pg
            .psql("harness_check")
            .args(["-tAc", "select 1+1"])
            .output()
            .expect("psql runs: it just created a database");
        assert!(out.status.success(), "psql: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "2");
        assert!(pg.bin_dir().join("psql").is_file());
        let dir = pg.dir.clone();
        drop(pg);
        assert!(!dir.exists(), "{} is left behind", dir.display());
    }

    /// `shared` starts one server per process, however many tests ask.
    #[test]
    fn pg_shared_is_one_server() {
        let Some(first) = shared("pg_shared_is_one_server") else { return };
        let Some(second) = shared("pg_shared_is_one_server") else { return };
        assert_eq!(first.port(), second.port());
        let url = second.create_database("shared_check");
        assert!(url.ends_with("/shared_check"), "{url}");
    }

    /// A name that would need quoting is refused before psql sees it (no server needed).
    #[test]
    #[should_panic(expected = "must be [a-z0-9_]+")]
    fn pg_database_names_are_checked() {
        let pg = TestPostgres {
            dir: PathBuf::from("/nonexistent"),
            data: PathBuf::from("/nonexistent/data"),
            port: 1,
            bin: PathBuf::from("/nonexistent"),
            as_os_user: false,
            watchdog: Mutex::new(None),
        };
        pg.create_database("Robert\"; DROP");
    }
}
