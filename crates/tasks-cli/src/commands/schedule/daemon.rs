//! `tasks daemon [--once]` and the in-process run of `schedule run-now`: the async
//! edge that runs Jobs, on a SQLite file or a team store on PostgreSQL alike. Every
//! rule is a `tasks_core::ops::schedule` step called through `spawn_blocking`; the
//! store sits behind a mutex and no connection is held across an `.await`.
//!
//! - On SQLite, a lock file next to the store (`<db>.daemon.lock`, an `flock` the
//!   kernel drops when the process dies, however it dies) keeps two daemons apart.
//!   Whoever holds it is the only runner, so at start every `running` due/command Job
//!   belongs to a dead process: `run::recover` marks it `interrupted`; it is never
//!   replayed. On PostgreSQL any number of daemons run, on any number of machines:
//!   each leases the Runs it starts ([`run::Lease`], renewed every loop), and every
//!   loop interrupts the Jobs whose lease ended — a killed daemon's Job is recorded
//!   once, by whichever daemon sees it first, and nobody runs it again.
//! - The loop: make Jobs for due firings and events (`fire::plan_due`, which applies
//!   the missed policy and persists `next_fire_at`; on PostgreSQL a schedule another
//!   daemon is planning is passed over), start what may start (at most
//!   [`MAX_PARALLEL_JOBS`], one per schedule unless it allows more; on PostgreSQL a Job
//!   another daemon is taking is passed over), then sleep until the next firing,
//!   [`POLL_INTERVAL`], or a third of the lease. On PostgreSQL a schedule added or
//!   changed on any machine wakes it at once (LISTEN/NOTIFY). `--once` stops when
//!   nothing is left to run.
//! - Commands run without a shell, with only the allow-listed environment (plus
//!   `TASKS_JOB_ID`, `TASKS_TASK`, `TASKS_SCHEDULED_FOR`, `TASKS_RUN_ATTEMPT`), stdin
//!   closed, stdout and stderr captured together up to the budget. Each command leads
//!   its own process group; at the timeout, or when the daemon stops, the whole group
//!   is killed — a `sh -c '… &'` or a build tool's workers do not outlive it. When
//!   the program itself exits, children it left behind are not killed (a Job may
//!   start a service on purpose), but their output is read for at most
//!   [`DRAIN_GRACE`] more. A transient failure is retried after the backoff.
//! - SIGTERM or SIGINT: running commands are killed, their Jobs marked `interrupted`,
//!   and the daemon exits 0 (the normal way systemd stops it).
//! - On PostgreSQL a connection the server ended is made again before the next step;
//!   a step that failed on it is logged and the loop goes on (finishing a Job is tried
//!   again on the new connection: the steps are written to be safe to repeat).

use std::collections::{BTreeMap, HashSet};
use std::fs::{File, OpenOptions, TryLockError};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clap::Args;
use jiff::tz::TimeZone;
use tasks_core::ops::schedule::limits::JOB_LEASE_MS;
use tasks_core::ops::schedule::run::{self, AfterRun, Lease, Outcome, RunReport, StartedJob};
use tasks_core::ops::schedule::{Action, CommandAction, Job, JobState, fire, manage};
use tasks_core::port::Engine;
use tasks_core::time::rfc3339;
use tasks_core::{Context, Store, wire};
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::signal::unix::{SignalKind, signal};
use tokio::task::JoinSet;

use super::super::App;
use super::super::backend::Backend;
use super::RunNowArgs;
use crate::env;
use crate::error::CliError;

/// Holds the longest the daemon sleeps between looks at the store: 5 s.
///
/// Firings wake it exactly (it sleeps until `next_fire_at`); the poll only bounds how
/// late it notices what other processes did — a run-now Job, a new schedule with an
/// earlier firing, a completed task for an event trigger. Five seconds is prompt for a
/// person and costs a few indexed reads.
pub const POLL_INTERVAL: Duration = Duration::from_secs(5);

/// Holds the shortest sleep of the loop, so a firing that stays due (a clock pinned by
/// `TASKS_NOW`) cannot make it spin.
const MIN_SLEEP: Duration = Duration::from_millis(200);

/// Holds how many Jobs one daemon runs at once: 4. Per-schedule limits still apply;
/// this bounds a personal machine's load when many schedules fire together.
pub const MAX_PARALLEL_JOBS: usize = 4;

/// Holds the size of one read from a command's stdout or stderr.
const READ_CHUNK: usize = 8 * 1024;

/// Holds the file name suffix of the daemon lock, next to the store.
const LOCK_SUFFIX: &str = ".daemon.lock";

#[derive(Debug, Args)]
pub struct DaemonArgs {
    /// Do every firing due up to now (missed policies apply), run the Jobs, and exit
    #[arg(long)]
    pub once: bool,
    /// Also run the Telegram bot in this process (see tasks bot telegram)
    #[arg(long)]
    pub telegram: bool,
    /// How long this daemon's hold on a Job it runs lasts unless renewed (on a team
    /// store, another daemon records a Job interrupted once its lease ended)
    #[arg(long, value_name = "DURATION", default_value = "60s", value_parser = parse_lease)]
    pub lease: Duration,
    /// The longest the daemon sleeps between looks at the store when nothing is due (a
    /// team store's changes wake it at once)
    #[arg(long, value_name = "DURATION", default_value = "5s", value_parser = parse_lease)]
    pub poll: Duration,
}

/// Reads `--lease` and `--poll`: a duration of at least a second.
fn parse_lease(text: &str) -> Result<Duration, String> {
    let d = tasks_core::input::parse_duration("duration", text).map_err(|e| e.to_string())?;
    if d < Duration::from_secs(1) {
        return Err(format!("{text} is too short: give at least 1s"));
    }
    Ok(d)
}

/// Names this daemon for the Runs it leases: `host:pid:start-ms`.
fn owner_id() -> String {
    let uname = rustix::system::uname();
    let host = uname.nodename().to_string_lossy().replace(':', "_");
    let start = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or(0);
    format!("{host}:{}:{start}", std::process::id())
}

/// The daemon lock: an exclusive `flock` on `<db>.daemon.lock`, released by the kernel
/// when the process ends, however it ends.
struct DaemonLock {
    _file: File,
}

impl DaemonLock {
    fn acquire(db: &Path) -> Result<DaemonLock, CliError> {
        let mut name = db.as_os_str().to_owned();
        name.push(LOCK_SUFFIX);
        let path = PathBuf::from(name);
        // Never through a symlink (someone could point the lock at a file of the user's
        // and have the pid written into it), and private like the store.
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .mode(0o600)
            .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32 | rustix::fs::OFlags::CLOEXEC.bits() as i32)
            .open(&path)
            .map_err(|e| {
                CliError::config(
                    format!("cannot open the daemon lock {}: {e}", path.display()),
                    Some("hint: the lock must be a regular file beside the store, not a symlink"),
                )
            })?;
        let regular = file.metadata().map(|m| m.file_type().is_file()).unwrap_or(false);
        if !regular {
            return Err(CliError::config(
                format!("the daemon lock {} is not a regular file", path.display()),
                Some("hint: remove it; the daemon makes its own"),
            ));
        }
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(tasks_core::Error::DaemonRunning { lock: path.display().to_string() }.into());
            }
            Err(TryLockError::Error(e)) => {
                return Err(CliError::other(format!("cannot lock {}: {e}", path.display())));
            }
        }
        // The pid is for people reading the file; the lock itself is the flock.
        let _ = file.set_len(0).and_then(|()| writeln!(file, "{}", std::process::id()));
        Ok(DaemonLock { _file: file })
    }
}

/// What the async side shares: the store behind a mutex, what a context needs, and
/// this daemon's lease.
#[derive(Clone)]
struct Shared {
    store: Arc<Mutex<Box<dyn Engine + Send>>>,
    actor: String,
    zone: TimeZone,
    lease: Lease,
    /// The longest sleep between looks at the store ([`POLL_INTERVAL`] unless `--poll`).
    poll: Duration,
    /// Other daemons may run on this store (PostgreSQL).
    team: bool,
}

impl Shared {
    /// Opens the daemon's own connection to the store the command was given.
    fn open(app: &App, lease: Duration, poll: Duration) -> Result<Shared, CliError> {
        let store: Box<dyn Engine + Send> = match &app.store {
            Backend::Postgres(pg) => Box::new(pg.pool().get()?),
            _ => Box::new(Store::open(app.store.file_ref()?.path())?),
        };
        let team = store.reader().is_shared();
        let lease = Lease { owner: owner_id(), length_ms: i64::try_from(lease.as_millis()).unwrap_or(JOB_LEASE_MS) };
        Ok(Shared {
            store: Arc::new(Mutex::new(store)),
            actor: app.ctx.actor.clone(),
            zone: app.ctx.zone.clone(),
            lease,
            poll,
            team,
        })
    }

    /// Returns a context with the clock read now (`TASKS_NOW` or the system clock).
    fn context(&self) -> Result<Context, CliError> {
        Ok(Context::new(env::now()?, self.actor.clone(), self.zone.clone()))
    }
}

/// Runs one core step on the blocking pool with a fresh context, on a connection made
/// again first if the server ended it.
async fn blocking<T, F>(shared: &Shared, f: F) -> Result<T, CliError>
where
    T: Send + 'static,
    F: FnOnce(&mut dyn Engine, &Context) -> tasks_core::Result<T> + Send + 'static,
{
    let shared = shared.clone();
    tokio::task::spawn_blocking(move || {
        let ctx = shared.context()?;
        let mut store = shared.store.lock().map_err(|_| CliError::other("the store mutex was poisoned"))?;
        store.reconnect_if_lost()?;
        f(&mut **store, &ctx).map_err(CliError::from)
    })
    .await
    .map_err(|e| CliError::other(format!("daemon: a store step failed: {e}")))?
}

/// Holds how many times a step that ends a Job is tried on a team store whose server
/// ended the connection, and the wait between tries.
const FINISH_TRIES: u32 = 5;
const FINISH_RETRY_WAIT: Duration = Duration::from_secs(1);

/// Runs a step that ends a Job: on a team store, tried again on a new connection when
/// it failed (each such step is safe to repeat: a Job already ended is left as it is).
async fn finishing<T, F>(shared: &Shared, f: F) -> Result<T, CliError>
where
    T: Send + 'static,
    F: Fn(&mut dyn Engine, &Context) -> tasks_core::Result<T> + Send + Sync + Clone + 'static,
{
    let mut tries = 0;
    loop {
        tries += 1;
        match blocking(shared, f.clone()).await {
            Ok(v) => return Ok(v),
            Err(e) if shared.team && tries < FINISH_TRIES => {
                eprintln!("tasks daemon: {} (trying again on a new connection)", e.message);
                tokio::time::sleep(FINISH_RETRY_WAIT).await;
            }
            Err(e) => return Err(e),
        }
    }
}

fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::other(format!("cannot start the async runtime: {e}")))
}

/// What a daemon run did, for `--once`'s answer.
#[derive(Default)]
struct Summary {
    recovered: Vec<Job>,
    jobs: BTreeMap<i64, Job>,
    missed_skipped: u64,
    stopped_by_signal: bool,
}

/// Prints a progress line on stderr (not with `--json`, which prints one value).
fn log(quiet: bool, line: impl AsRef<str>) {
    if !quiet {
        eprintln!("tasks daemon: {}", line.as_ref());
    }
}

fn job_line(j: &Job) -> String {
    let when = tasks_core::ops::schedule::local_text(j.scheduled_for, &j.snapshot.zone);
    match &j.reason {
        Some(r) => format!("Job #{} {} {} for {when}: {} ({r})", j.id, j.task_key, j.kind, j.state),
        None => format!("Job #{} {} {} for {when}: {}", j.id, j.task_key, j.kind, j.state),
    }
}

/// Runs `tasks daemon [--once]`.
pub fn daemon(app: &mut App, a: DaemonArgs) -> Result<(), CliError> {
    crate::vars::protect_memory();
    // One daemon per SQLite file; on a team store any number, kept apart by leases.
    let lock = match &app.store {
        Backend::Postgres(_) => None,
        _ => Some(DaemonLock::acquire(app.store.file_ref()?.path())?),
    };
    let shared = Shared::open(app, a.lease, a.poll)?;
    let wake = Arc::new(tokio::sync::Notify::new());
    if let Backend::Postgres(pg) = &app.store
        && !a.once
    {
        listen_for_schedules(pg.listen(tasks_pg::SCHEDULES_CHANNEL)?, wake.clone());
    }
    let quiet = app.json;
    // The conversation runner: Telegram chats with --telegram, local conversations'
    // prompt firings when a model is configured.
    let runner = std::sync::Arc::new(super::super::bot::runner(app, a.telegram)?);
    let once = a.once;
    // The store is let go here, outside the runtime: a PostgreSQL client may not be
    // dropped on a thread that drives async tasks.
    let _store = shared.store.clone();
    let summary = runtime()?.block_on(async move {
        runner.recover().await.map_err(super::super::bot::runner_error)?;
        if once {
            let summary = serve(shared, true, quiet, wake).await?;
            runner.poll(Duration::ZERO).await.map_err(super::super::bot::runner_error)?;
            runner.work().await.map_err(super::super::bot::runner_error)?;
            return Ok(summary);
        }
        tokio::select! {
            summary = serve(shared, false, quiet, wake) => summary,
            _ = super::super::bot::loops(runner.clone()) => unreachable!("the bot's loops never end"),
        }
    })?;
    drop(lock);
    let jobs: Vec<&Job> = summary.jobs.values().collect();
    app.print(
        || wire::daemon_run(&summary.recovered, &jobs, summary.missed_skipped, summary.stopped_by_signal),
        || {
            let mut out = String::new();
            for j in &summary.recovered {
                out.push_str(&format!("{}\n", job_line(j)));
            }
            for j in &jobs {
                out.push_str(&format!("{}\n", job_line(j)));
            }
            if summary.missed_skipped > 0 {
                out.push_str(&format!("{} missed firing(s) not run by policy.\n", summary.missed_skipped));
            }
            if out.is_empty() {
                out.push_str("Nothing was due.\n");
            }
            out
        },
    );
    Ok(())
}

/// Wakes the loop whenever a schedule is added or changed on any machine (PostgreSQL's
/// LISTEN, on a connection of its own, on a thread of its own: the wait blocks). The
/// listener makes its connection again when the server ends it, and wakes the loop
/// once then, in case a notification was lost meanwhile.
fn listen_for_schedules(mut listener: tasks_pg::Listener, wake: Arc<tokio::sync::Notify>) {
    std::thread::spawn(move || {
        loop {
            match listener.wait(POLL_INTERVAL) {
                Ok(true) => wake.notify_one(),
                Ok(false) => {}
                Err(e) => {
                    eprintln!("tasks daemon: listening for schedule changes: {e} (trying again)");
                    std::thread::sleep(POLL_INTERVAL);
                }
            }
        }
    });
}

/// One look at the store: on a team store, renew this daemon's leases (when it runs
/// Jobs) and take over Jobs whose lease ended; then make the Jobs of due firings.
async fn tick(shared: &Shared, summary: &mut Summary, quiet: bool, running: bool) -> Result<(), CliError> {
    if shared.team {
        // Only a daemon that runs something has leases to renew.
        if running {
            let lease = shared.lease.clone();
            blocking(shared, move |s, c| run::renew(s, c, &lease)).await?;
        }
        for j in blocking(shared, run::recover).await? {
            log(quiet, format!("recovered {}", job_line(&j)));
            summary.recovered.push(j);
        }
    }
    let tick = blocking(shared, fire::plan_due).await?;
    summary.missed_skipped += tick.missed_skipped;
    for j in tick.jobs {
        log(quiet, format!("made {}", job_line(&j)));
        summary.jobs.insert(j.id, j);
    }
    Ok(())
}

async fn serve(shared: Shared, once: bool, quiet: bool, wake: Arc<tokio::sync::Notify>) -> Result<Summary, CliError> {
    let mut summary = Summary::default();
    let signal_err = |e: std::io::Error| CliError::other(format!("cannot listen for signals: {e}"));
    let mut term = signal(SignalKind::terminate()).map_err(signal_err)?;
    let mut int = signal(SignalKind::interrupt()).map_err(signal_err)?;
    // What a killed daemon started may still run (a command's own children outlive it:
    // the parent-death signal reaches the program only). End it before saying so.
    let lease = shared.lease.clone();
    for orphan in blocking(&shared, move |s, c| run::orphans(s, c, &lease)).await? {
        let killed = kill_orphan(orphan);
        if killed > 0 {
            log(quiet, format!("killed {killed} process(es) left by Job #{}", orphan.job_id));
        }
    }
    if !shared.team {
        summary.recovered = blocking(&shared, run::recover).await?;
        for j in &summary.recovered {
            log(quiet, format!("recovered {}", job_line(j)));
        }
    }
    if !once {
        log(quiet, format!("started as {}", shared.lease.owner));
    }
    let mut tasks: JoinSet<(i64, Result<Job, CliError>)> = JoinSet::new();
    let mut busy: HashSet<i64> = HashSet::new();
    loop {
        match tick(&shared, &mut summary, quiet, !busy.is_empty()).await {
            Ok(()) => {}
            // A team store's server may end the connection: say so, and look again.
            Err(e) if shared.team && !once => log(quiet, format!("{} (looking again)", e.message)),
            Err(e) => return Err(e),
        }
        while tasks.len() < MAX_PARALLEL_JOBS {
            let skip: Vec<i64> = busy.iter().copied().collect();
            let lease = shared.lease.clone();
            let started = match blocking(&shared, move |s, c| run::start_next(s, c, &skip, &lease)).await {
                Ok(Some(started)) => started,
                Ok(None) => break,
                Err(e) if shared.team && !once => {
                    log(quiet, format!("{} (looking again)", e.message));
                    // The start may have committed unheard: take up what is ours.
                    let lease = shared.lease.clone();
                    if let Ok(lost) = blocking(&shared, move |s, _| run::leased_to(s, &lease)).await {
                        for started in lost {
                            let id = started.job.id;
                            if busy.contains(&id) {
                                continue;
                            }
                            log(quiet, format!("took up Job #{id}, started as the connection dropped"));
                            busy.insert(id);
                            let sh = shared.clone();
                            tasks.spawn(async move { (id, run_job(sh, started).await) });
                        }
                    }
                    break;
                }
                Err(e) => return Err(e),
            };
            let id = started.job.id;
            log(quiet, format!("started Job #{id} {} (Run {})", started.job.task_key, started.attempt));
            busy.insert(id);
            let sh = shared.clone();
            tasks.spawn(async move { (id, run_job(sh, started).await) });
        }
        if once && tasks.is_empty() {
            break;
        }
        let sleep = if once { POLL_INTERVAL } else { until_next_wake(&shared).await.unwrap_or(shared.poll) };
        tokio::select! {
            Some(done) = tasks.join_next(), if !tasks.is_empty() => match done {
                Ok((id, Ok(job))) => {
                    busy.remove(&id);
                    log(quiet, format!("finished {}", job_line(&job)));
                    summary.jobs.insert(job.id, job);
                }
                Ok((id, Err(e))) => {
                    busy.remove(&id);
                    log(quiet, format!("Job #{id}: {}", e.message));
                }
                Err(e) => log(quiet, format!("a Job task failed: {e}")),
            },
            _ = tokio::time::sleep(sleep) => {}
            _ = wake.notified() => {}
            _ = term.recv() => {
                shutdown(&shared, &mut tasks, &busy, "SIGTERM", &mut summary, quiet).await?;
                break;
            }
            _ = int.recv() => {
                shutdown(&shared, &mut tasks, &busy, "SIGINT", &mut summary, quiet).await?;
                break;
            }
        }
    }
    Ok(summary)
}

/// Returns how long to sleep: until the next firing or retry, at most the poll interval
/// and a third of the lease (so the lease is renewed in time).
async fn until_next_wake(shared: &Shared) -> Result<Duration, CliError> {
    let wake = blocking(shared, |s, _| fire::next_wake(s)).await?;
    let now = env::now()?.as_millisecond();
    let renew = Duration::from_millis(u64::try_from(shared.lease.length_ms / 3).unwrap_or(0));
    let wait = match wake {
        Some(at) if at > now => Duration::from_millis((at - now) as u64).min(shared.poll),
        Some(_) => MIN_SLEEP,
        None => shared.poll,
    };
    Ok(wait.min(renew).max(MIN_SLEEP))
}

/// Stops every running Job (their commands are killed when their tasks drop) and marks
/// them `interrupted`.
async fn shutdown(
    shared: &Shared,
    tasks: &mut JoinSet<(i64, Result<Job, CliError>)>,
    busy: &HashSet<i64>,
    signal_name: &str,
    summary: &mut Summary,
    quiet: bool,
) -> Result<(), CliError> {
    log(quiet, format!("{signal_name}: stopping"));
    tasks.abort_all();
    while tasks.join_next().await.is_some() {}
    let ids: Vec<i64> = busy.iter().copied().collect();
    let why = format!("the daemon was stopped ({signal_name}) while this Job ran; not replayed");
    let interrupted = blocking(shared, move |s, c| run::interrupt(s, c, &ids, &why)).await?;
    for j in interrupted {
        log(quiet, format!("interrupted {}", job_line(&j)));
        summary.jobs.insert(j.id, j);
    }
    summary.stopped_by_signal = true;
    Ok(())
}

/// Runs a started Job to its end: a due action in one core step; a command with its
/// retries.
async fn run_job(shared: Shared, mut started: StartedJob) -> Result<Job, CliError> {
    loop {
        let command = match &started.job.snapshot.action {
            Action::Due => {
                let st = started.clone();
                return finishing(&shared, move |s, c| run::apply_due(s, c, &st)).await;
            }
            // Prompt Jobs are parked for the conversation; the runner never starts one.
            Action::Prompt(_) => return Ok(started.job),
            Action::Command(c) => c.clone(),
        };
        let report = run_command(&shared, &started, &command).await;
        let st = started.clone();
        match finishing(&shared, move |s, c| run::finish(s, c, &st, &report)).await? {
            AfterRun::Done(job) => return Ok(job),
            AfterRun::Retry { job, after } => {
                tokio::time::sleep(after).await;
                let id = job.id;
                let lease = shared.lease.clone();
                match blocking(&shared, move |s, c| run::begin_retry(s, c, id, &lease)).await? {
                    Some(next) => started = next,
                    None => return Ok(job),
                }
            }
        }
    }
}

/// Keeps the first `budget` bytes of a command's output and counts the rest.
struct Capture {
    kept: Vec<u8>,
    budget: usize,
    dropped: u64,
}

impl Capture {
    fn new(budget: u64) -> Capture {
        Capture { kept: Vec::new(), budget: usize::try_from(budget).unwrap_or(usize::MAX), dropped: 0 }
    }

    fn push(&mut self, bytes: &[u8]) {
        let room = self.budget.saturating_sub(self.kept.len());
        let take = room.min(bytes.len());
        self.kept.extend_from_slice(&bytes[..take]);
        self.dropped += (bytes.len() - take) as u64;
    }

    /// Returns the kept text (cut back to a whole UTF-8 character when cut) with a note
    /// saying how much was dropped, and the dropped byte count.
    fn finish(&self) -> (String, u64) {
        let mut kept = self.kept.as_slice();
        let mut dropped = self.dropped;
        if dropped > 0 {
            // A cut inside a multi-byte character leaves an incomplete sequence at the end.
            while let Err(e) = std::str::from_utf8(kept) {
                if e.error_len().is_some() || kept.is_empty() {
                    break;
                }
                kept = &kept[..kept.len() - 1];
                dropped += 1;
            }
        }
        let mut text = String::from_utf8_lossy(kept).into_owned();
        if dropped > 0 {
            text.push_str(&format!("\n[… {dropped} more bytes dropped: the output budget is {} bytes]", self.budget));
        }
        (text, dropped)
    }
}

async fn pump(stream: Option<impl AsyncRead + Unpin>, capture: Arc<Mutex<Capture>>) {
    let Some(mut stream) = stream else { return };
    let mut buf = vec![0u8; READ_CHUNK];
    // Reading on past the budget keeps the program from blocking on a full pipe.
    while let Ok(n) = stream.read(&mut buf).await {
        if n == 0 {
            break;
        }
        if let Ok(mut c) = capture.lock() {
            c.push(&buf[..n]);
        }
    }
}

fn report(outcome: Outcome, exit_code: Option<i32>, error: Option<String>, capture: &Mutex<Capture>) -> RunReport {
    let (output, output_dropped) = capture.lock().map(|c| c.finish()).unwrap_or_default();
    RunReport { outcome, exit_code, output, output_dropped, error }
}

/// Runs a command action once and says how it ended.
async fn run_command(shared: &Shared, started: &StartedJob, c: &CommandAction) -> RunReport {
    let capture = Arc::new(Mutex::new(Capture::new(c.output_budget_bytes)));
    let Some((program, args)) = c.argv.split_first() else {
        return report(Outcome::NotStarted, None, Some("the command is empty".into()), &capture);
    };
    let mut cmd = tokio::process::Command::new(program);
    cmd.args(args)
        .current_dir(&c.workdir)
        .env_clear()
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own process group (pgid = its pid), so the group can be killed whole.
        .process_group(0)
        .kill_on_drop(true);
    let daemon = rustix::process::getpid();
    // SAFETY: the closure runs in the child between fork and exec, where only
    // async-signal-safe calls are allowed; it makes two raw syscalls (prctl, getppid)
    // through rustix and allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            // The program dies with the daemon, even with kill -9 (the runtime is
            // current-thread, so the forking thread is the daemon's main thread).
            rustix::process::set_parent_process_death_signal(Some(rustix::process::Signal::KILL))?;
            // The daemon may have died before the prctl: then do not start at all.
            if rustix::process::getppid() != Some(daemon) {
                return Err(std::io::Error::other("the daemon exited before the command started"));
            }
            Ok(())
        });
    }
    for name in c.env_allow.iter().filter(|n| !env::SECRETS.contains(&n.as_str())) {
        if let Some(value) = std::env::var_os(name) {
            cmd.env(name, value);
        }
    }
    cmd.env("TASKS_JOB_ID", started.job.id.to_string())
        .env("TASKS_TASK", &started.job.task_key)
        .env("TASKS_SCHEDULED_FOR", rfc3339(started.job.scheduled_for))
        .env("TASKS_RUN_ATTEMPT", started.attempt.to_string());
    let mut child = match cmd.spawn() {
        Ok(child) => child,
        Err(e) => {
            use std::io::ErrorKind::*;
            let outcome = match e.kind() {
                WouldBlock | ResourceBusy | ExecutableFileBusy | OutOfMemory | Interrupted => Outcome::Transient,
                _ => Outcome::NotStarted,
            };
            let error = format!("cannot start {program} in {}: {e}", c.workdir);
            return report(outcome, None, Some(error), &capture);
        }
    };
    if let Some(pid) = child.id() {
        let run_id = started.run_id;
        // Informational only; a failure to record it must not stop the Run.
        let _ = blocking(shared, move |s, _| run::record_pid(s, run_id, pid)).await;
    }
    let group = child.id().map(GroupKill);
    let (out, err) = (child.stdout.take(), child.stderr.take());
    let pumps = tokio::spawn({
        let capture = capture.clone();
        async move {
            tokio::join!(pump(out, capture.clone()), pump(err, capture));
        }
    });
    let limit = Duration::from_secs(c.timeout_seconds);
    let waited = tokio::time::timeout(limit, child.wait()).await;
    if waited.is_err() {
        // The timeout: the program and everything it started.
        if let Some(group) = &group {
            group.kill();
        }
        let _ = child.kill().await;
    }
    // A child the program left running may hold the pipes open: read on briefly, then
    // stop reading (the capture keeps what came).
    let _ = tokio::time::timeout(DRAIN_GRACE, pumps).await;
    if let Some(group) = group {
        // Ended normally: the group is left alone (see the module doc).
        std::mem::forget(group);
    }
    match waited {
        Ok(Ok(status)) => match status.code() {
            Some(code) => {
                let outcome = RunReport::outcome_of_exit(code);
                let error = match outcome {
                    Outcome::Succeeded => None,
                    Outcome::Transient => Some(format!("exit code {code} (EX_TEMPFAIL: try again)")),
                    // The Run's exit code says it; the Job's reason reads "exit code N".
                    _ => None,
                };
                report(outcome, Some(code), error, &capture)
            }
            None => {
                let signal = status.signal().map(|s| s.to_string()).unwrap_or_else(|| "?".into());
                report(Outcome::OutcomeUnknown, None, Some(format!("killed by signal {signal}")), &capture)
            }
        },
        Ok(Err(e)) => report(Outcome::OutcomeUnknown, None, Some(format!("lost track of the program: {e}")), &capture),
        Err(_) => {
            let error = format!("timeout: killed after {}s", c.timeout_seconds);
            report(Outcome::TimedOut, None, Some(error), &capture)
        }
    }
}

/// How long a command's output is still read after the program exited, while a child
/// it left behind keeps the pipes open.
pub const DRAIN_GRACE: Duration = Duration::from_secs(2);

/// The process group a command leads. Dropping it kills the group: when the daemon
/// stops (SIGTERM drops the running Jobs' futures), the command's children go with it;
/// `kill_on_drop` alone reached only the program itself.
struct GroupKill(u32);

impl GroupKill {
    fn kill(&self) {
        let Some(pgid) = i32::try_from(self.0).ok().and_then(rustix::process::Pid::from_raw) else { return };
        // ESRCH (the group is already gone) is the expected case after a clean exit.
        let _ = rustix::process::kill_process_group(pgid, rustix::process::Signal::KILL);
    }
}

impl Drop for GroupKill {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Kills what is left of an orphaned command: every process in the group the command
/// led that still carries its Job's `TASKS_JOB_ID` (set for every command and inherited
/// by its children) — the mark keeps a recycled group id from taking a stranger down.
/// Returns how many it signalled.
fn kill_orphan(orphan: run::Orphan) -> usize {
    let mark = format!("TASKS_JOB_ID={}", orphan.job_id);
    let Ok(entries) = std::fs::read_dir("/proc") else { return 0 };
    let mut killed = 0;
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<i32>().ok()) else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
        // "pid (comm) state ppid pgrp …": the fields after the parenthesised name.
        let pgrp = stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().nth(2)?.parse::<u32>().ok());
        if pgrp != Some(orphan.pid) {
            continue;
        }
        let Ok(environ) = std::fs::read(format!("/proc/{pid}/environ")) else { continue };
        if !environ.split(|b| *b == 0).any(|v| v == mark.as_bytes()) {
            continue;
        }
        if let Some(p) = rustix::process::Pid::from_raw(pid)
            && rustix::process::kill_process(p, rustix::process::Signal::KILL).is_ok()
        {
            killed += 1;
        }
    }
    killed
}

/// Returns a fresh idempotency key for a run-now without `--key`.
fn fresh_key() -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    format!("auto-{nanos}-{}", std::process::id())
}

/// Runs `tasks schedule run-now`: makes the Job for the key, then runs it here unless a
/// daemon is running (which starts it within [`POLL_INTERVAL`]) or `--no-wait`. On a
/// team store the daemons run it (the new Job wakes them at once): which machine runs
/// a command is theirs to decide, never the machine that asked.
pub fn run_now(app: &mut App, a: RunNowArgs) -> Result<(), CliError> {
    let key = a.key.clone().unwrap_or_else(fresh_key);
    let out = manage::run_now(app.store.engine(), &app.ctx, &a.task, &key)?;
    let mut job = out.job.clone();
    let mut note = None;
    let runnable = out.created && job.state == JobState::Queued && !matches!(job.snapshot.action, Action::Prompt(_));
    if runnable && matches!(app.store, Backend::Postgres(_)) {
        note = Some("on a team store the daemons run it; tasks jobs shows how it went");
    } else if runnable && !a.no_wait {
        match DaemonLock::acquire(app.store.file_ref()?.path()) {
            Ok(lock) => {
                let shared = Shared::open(app, Duration::from_millis(JOB_LEASE_MS as u64), POLL_INTERVAL)?;
                let id = job.id;
                job = runtime()?.block_on(async move {
                    let lease = shared.lease.clone();
                    match blocking(&shared, move |s, c| run::start(s, c, id, &lease)).await? {
                        Some(started) => run_job(shared, started).await,
                        None => Err(CliError::other(format!("Job #{id} was started elsewhere"))),
                    }
                })?;
                drop(lock);
            }
            Err(e) if e.code == "conflict" => note = Some("a daemon is running; it starts the Job within seconds"),
            Err(e) => return Err(e),
        }
    }
    let detail = manage::job(app.store.reads(), job.id)?;
    app.print(
        || wire::run_now(&detail, out.created),
        || {
            let mut s = if out.created { String::new() } else { format!("Key \"{key}\" was used before: ") };
            s.push_str(&job_line(&detail.job));
            s.push('\n');
            if let Some(n) = note {
                s.push_str(&format!("{n}.\n"));
            }
            s
        },
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(budget: u64, chunks: &[&[u8]], expected: &str, dropped: u64) {
        let mut c = Capture::new(budget);
        for chunk in chunks {
            c.push(chunk);
        }
        assert_eq!(c.finish(), (expected.to_string(), dropped));
    }

    #[test]
    fn capture_keeps_the_budget_and_notes_the_rest() {
        check(10, &[b"hello"], "hello", 0);
        check(4, &[b"hel", b"lo"], "hell\n[… 1 more bytes dropped: the output budget is 4 bytes]", 1);
        // "é" is two bytes; a cut inside it drops the half character too.
        check(2, &["aé".as_bytes()], "a\n[… 2 more bytes dropped: the output budget is 2 bytes]", 2);
    }
}
