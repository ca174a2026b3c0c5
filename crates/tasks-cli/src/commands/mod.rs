//! The command line: global flags, the subcommand enum, and the dispatch to one module
//! per verb family. Each module holds Args structs (their doc comments are the help)
//! and a function that calls one `tasks-core` operation and renders the outcome.

mod add;
mod backend;
mod bot;
mod change;
mod chat;
mod claim;
mod duplicates;
mod prime;
mod project;
mod schedule;
mod serve;
mod shell;
mod transfer;
mod view;

use std::io::Write as _;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use serde_json::Value;
use tasks_core::{Context, Store};

pub use backend::Backend;

use crate::env;
use crate::error::CliError;
use crate::render::Style;

/// A local task engine for a person and the AI agents that work beside them
#[derive(Debug, Parser)]
#[command(name = "tasks", version, propagate_version = true, max_term_width = 100)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// Flags every command takes.
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Print one JSON value on stdout (errors: one JSON object on stderr)
    #[arg(long, global = true)]
    pub json: bool,
    /// Store file [default: $TASKS_DB, else $XDG_DATA_HOME/tasks/tasks.db]
    #[arg(long, global = true, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Act as this actor (claims, history) [default: $TASKS_ACTOR, else the OS user]
    #[arg(long = "as", global = true, value_name = "NAME")]
    pub actor: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Manage projects
    #[command(subcommand)]
    Project(project::ProjectCommand),
    /// Add a task (refuses a probable duplicate unless --attach or --new)
    Add(add::AddArgs),
    /// List tasks
    List(view::ListArgs),
    /// Show one task with its links
    Show(view::TaskArg),
    /// Show a task's history
    History(view::TaskArg),
    /// Find tasks by the words of their titles, descriptions and notes (any script)
    Search(view::SearchArgs),
    /// Change fields of a task (no field flags: opens $EDITOR)
    Edit(change::EditArgs),
    /// Mark tasks in progress
    Start(change::ManyArgs),
    /// Put a task in progress back to open
    Stop(change::StopArgs),
    /// Mark tasks done (unblocks their dependants)
    Done(change::ManyArgs),
    /// Close tasks without doing them (tasks never deletes: a dismissed task stays)
    Dismiss(change::DismissArgs),
    /// Reopen a closed task
    Reopen(view::TaskArg),
    /// Add tags to tasks: tasks tag HRB-1 HRB-2 urgent
    Tag(change::TagArgs),
    /// Remove tags from tasks
    Untag(change::TagArgs),
    /// Add a timestamped note to a task
    Note(change::NoteArgs),
    /// Revert your last change (any write: add, edit, done, tag, link, claim, merge, note)
    Undo(change::UndoArgs),
    /// Link two tasks: TASK KIND OTHER (e.g. HRB-3 blocked-by HRB-1)
    Link(change::LinkArgs),
    /// Remove a link between two tasks
    Unlink(change::LinkArgs),
    /// List tasks ready to work on: open, unblocked, not claimed by another
    Ready(view::ReadyArgs),
    /// List open tasks waiting for an open blocker
    Blocked(view::LimitArgs),
    /// Show an agenda view: today, inbox, overdue or week
    Agenda(view::AgendaArgs),
    /// Draw a task's links as a tree, dot or mermaid
    Graph(view::GraphArgs),
    /// Claim a task for a while (a lease)
    Claim(claim::ClaimArgs),
    /// Release your claim on a task
    Release(view::TaskArg),
    /// Pick the best ready task (with --claim: claim it atomically)
    Next(claim::NextArgs),
    /// Run the duplicate check alone for a would-be task (never writes)
    Check(duplicates::CheckArgs),
    /// List pairs to review; reject, retrain, evaluate
    Duplicates(duplicates::DuplicatesArgs),
    /// Merge a duplicate into the task to keep (dismisses it, moves its messages)
    Merge(duplicates::MergeArgs),
    /// Undo a merge (reopens the duplicate, moves its messages back)
    Unmerge(duplicates::UnmergeArgs),
    /// Import a tasks export, task lines, or Taskwarrior's / beads' export (one transaction)
    Import(transfer::ImportArgs),
    /// Export the whole store (lossless), task lines, or for Taskwarrior / beads
    Export(transfer::ExportArgs),
    /// Write a consistent copy of the store while others write
    Backup(transfer::BackupArgs),
    /// Replace the store's content with a backup (asks: --yes)
    Restore(transfer::RestoreArgs),
    /// Schedule tasks: triggers in a time zone, actions, preview, pause, run-now, queue
    #[command(subcommand)]
    Schedule(schedule::ScheduleCommand),
    /// List Jobs (firings of schedules) with their Runs, newest first
    Jobs(schedule::JobsArgs),
    /// Run due firings: a long-running loop, or --once to run what is due and exit
    Daemon(schedule::DaemonArgs),
    /// Print shell completions
    Completions(shell::CompletionsArgs),
    /// Print the man page (tasks man COMMAND: one command's; --dir: every page)
    Man(shell::ManArgs),
    /// Print N generated tasks as JSON Lines (a deterministic workload for benchmarks)
    Workload(WorkloadArgs),
    /// Talk to your tasks: free text (through the model, or offline) or /commands
    Chat(chat::ChatArgs),
    /// Run a chat bot on the same store (Telegram)
    #[command(subcommand)]
    Bot(bot::BotCommand),
    /// Serve the Task Center web page (loopback, a session token, CSRF on writes)
    Serve(serve::ServeArgs),
    /// Serve the same operations to agents over MCP (stdio)
    Mcp,
    /// Print a short workflow guide for an agent's context
    Prime,
}

impl Command {
    /// Returns whether the command may write to the store (and so may create it). A
    /// command that only reads must never create a store by looking (issue 10).
    fn writes(&self) -> bool {
        match self {
            Command::List(_)
            | Command::Search(_)
            | Command::Show(_)
            | Command::History(_)
            | Command::Ready(_)
            | Command::Blocked(_)
            | Command::Agenda(_)
            | Command::Graph(_)
            | Command::Check(_)
            | Command::Export(_)
            | Command::Backup(_)
            | Command::Jobs(_)
            | Command::Project(project::ProjectCommand::List) => false,
            Command::Duplicates(a) => a.writes(),
            Command::Chat(a) => !a.dry_run,
            Command::Undo(a) => !a.dry_run,
            Command::Schedule(c) => c.writes(),
            _ => true,
        }
    }

    /// Returns whether opening the store for this command brings an index an older
    /// version wrote up to date: every command that writes, but a dry run (it promises
    /// to leave the store as it was), `duplicates reindex` (it rewrites the index
    /// anyway) and `restore` (it replaces what is there).
    fn reindexes_on_open(&self) -> bool {
        match self {
            Command::Add(a) => !a.dry_run,
            Command::Edit(a) => !a.dry_run,
            Command::Duplicates(a) => a.writes() && !a.is_reindex(),
            Command::Restore(_) => false,
            c => c.writes(),
        }
    }
}

#[derive(Debug, Args)]
pub struct WorkloadArgs {
    /// How many tasks
    pub count: usize,
    /// Seed of the generator (same seed, same tasks)
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// Bug reports with long descriptions (a tracker's shape) instead of everyday tasks
    #[arg(long)]
    pub reports: bool,
}

/// What a command needs: the open store, the context, the output mode.
pub struct App {
    pub store: Backend,
    pub ctx: Context,
    pub json: bool,
    pub style: Style,
}

impl App {
    /// Opens the store for a command; a command that only reads never creates one: on
    /// a machine with no store yet it reads an empty one in memory and says so.
    ///
    /// A store whose duplicate-check index an older version wrote is reindexed here,
    /// once, when the command writes (`reindex`), under the user's lock wait and with a
    /// bar on a terminal: at 100k tasks it takes seconds.
    fn open(global: &GlobalArgs, writes: bool, reindex: bool) -> Result<App, CliError> {
        let ctx = env::context(global.actor.as_deref())?;
        let path = env::store_path(global.db.as_ref())?;
        let style = Style {
            colour: env::colour(),
            today: ctx.today(),
            now_ms: ctx.now_ms(),
            zone: ctx.zone.clone(),
            width: env::width(),
        };
        // A postgres:// store is the team store: connecting migrates it and rebuilds an
        // index an older version wrote, as a SQLite store's writing open does.
        if let Some(url) = path.to_str().filter(|t| tasks_pg::is_postgres_url(t)) {
            let store = tasks_pg::PgStore::connect(url)?;
            if let Some(n) = store.reindexed() {
                duplicates::say_rebuilt(n as usize, global.json);
            }
            return Ok(App { store: Backend::Postgres(Box::new(store)), ctx, json: global.json, style });
        }
        let mut store = if writes {
            Store::open_leaving_index(&path)?
        } else {
            match Store::open_existing(&path) {
                Ok(store) => store,
                Err(tasks_core::Error::NotFound { what: "store", .. }) => {
                    // With --json stderr carries only an error object; the empty answer says enough.
                    if !global.json {
                        eprintln!(
                            "note: there is no store at {} yet; the first write (tasks add TITLE) creates it",
                            path.display()
                        );
                    }
                    Store::open(std::path::Path::new(":memory:"))?
                }
                Err(e) => return Err(e.into()),
            }
        };
        store.set_busy_timeout(env::busy_timeout()?)?;
        if writes && reindex {
            let mut bar = duplicates::ReindexBar::new(global.json);
            let reindexed = store.reindex_if_outdated(&mut |done, total| bar.tick(done, total))?;
            bar.finish();
            if let Some(n) = reindexed {
                duplicates::say_rebuilt(n, global.json);
            }
        }
        if let Some(e) = duplicates::embedding_from_env()? {
            e.attach(&store)?;
        }
        // A new store says so once, so a mistyped TASKS_DB does not go unnoticed.
        if store.created() && !global.json {
            eprintln!("note: created a new store at {}", path.display());
        }
        Ok(App { store: Backend::Sqlite(store), ctx, json: global.json, style })
    }

    /// Prints the answer: the JSON value with `--json`, else the human text.
    pub fn print(&self, value: impl FnOnce() -> Value, human: impl FnOnce() -> String) {
        if self.json {
            println!("{}", value());
        } else {
            print!("{}", human());
        }
    }
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<(), CliError> {
    // Commands that need no store.
    match &cli.command {
        Command::Completions(args) => return shell::completions(args),
        Command::Man(a) => return shell::man(a),
        Command::Workload(a) => {
            if a.count > tasks_core::workload::MAX_TASKS {
                return Err(CliError::validation(
                    format!(
                        "workload: {} tasks is more than the generator makes ({})",
                        a.count,
                        tasks_core::workload::MAX_TASKS
                    ),
                    Some("hint: a 100k-task store is the benchmark size: tasks workload 100000".into()),
                ));
            }
            let end = env::now()?.as_millisecond();
            // A closed pipe (`| head`) ends the output quietly, as other tools do.
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            let lines = if a.reports {
                tasks_core::workload::reports(a.count, a.seed, end)
            } else {
                tasks_core::workload::lines(a.count, a.seed, end)
            };
            for line in lines {
                if writeln!(out, "{line}").is_err() {
                    return Ok(());
                }
            }
            let _ = out.flush();
            return Ok(());
        }
        Command::Prime => {
            print!("{}", prime::GUIDE);
            return Ok(());
        }
        Command::Mcp => return mcp(&cli.global),
        _ => {}
    }
    let target = env::store_path(cli.global.db.as_ref())?;
    let mut app = App::open(&cli.global, cli.command.writes(), cli.command.reindexes_on_open())
        .map_err(|e| if e.code == "timeout" { locked(e, &target) } else { e })?;
    dispatch(&mut app, cli.command).map_err(|e| if e.code == "timeout" { locked(e, &target) } else { e })
}

/// Says who holds the store's write lock when a write gave up waiting for it: the
/// pids and command lines `/proc/locks` names (issue 10).
fn locked(mut e: CliError, path: &std::path::Path) -> CliError {
    let wait = env::busy_timeout().unwrap_or(tasks_core::store::BUSY_TIMEOUT);
    let holders = crate::locks::holders(path);
    e.message = format!(
        "the store at {} stayed locked by another writer for {} s; nothing was written",
        path.display(),
        wait.as_secs_f64()
    );
    let mut details = serde_json::Map::new();
    details.insert("path".into(), path.display().to_string().into());
    details.insert(
        "holders".into(),
        holders
            .iter()
            .map(|h| {
                let mut o = serde_json::Map::new();
                o.insert("pid".into(), h.pid.into());
                o.insert("command".into(), h.command.clone().into());
                Value::Object(o)
            })
            .collect::<Vec<_>>()
            .into(),
    );
    e.details = Value::Object(details);
    e.hints = if holders.is_empty() {
        vec!["hint: try again when the other write is done; TASKS_BUSY_TIMEOUT=2m waits longer".into()]
    } else {
        holders.iter().map(|h| format!("hint: held by pid {}: {}", h.pid, h.command)).collect()
    };
    e
}

fn dispatch(app: &mut App, command: Command) -> Result<(), CliError> {
    match command {
        Command::Project(c) => project::run(app, c),
        Command::Add(a) => add::run(app, a),
        Command::List(a) => view::list(app, a),
        Command::Show(a) => view::show(app, a),
        Command::History(a) => view::history(app, a),
        Command::Search(a) => view::search(app, a),
        Command::Edit(a) => change::edit(app, a),
        Command::Start(a) => change::start(app, a),
        Command::Stop(a) => change::stop(app, a),
        Command::Done(a) => change::done(app, a),
        Command::Note(a) => change::note(app, a),
        Command::Undo(a) => change::undo(app, a),
        Command::Dismiss(a) => change::dismiss(app, a),
        Command::Reopen(a) => change::reopen(app, a),
        Command::Tag(a) => change::tag(app, a, true),
        Command::Untag(a) => change::tag(app, a, false),
        Command::Link(a) => change::link(app, a, true),
        Command::Unlink(a) => change::link(app, a, false),
        Command::Ready(a) => view::ready(app, a),
        Command::Blocked(a) => view::blocked(app, a),
        Command::Agenda(a) => view::agenda(app, a),
        Command::Graph(a) => view::graph(app, a),
        Command::Claim(a) => claim::claim(app, a),
        Command::Release(a) => claim::release(app, a),
        Command::Next(a) => claim::next(app, a),
        Command::Check(a) => duplicates::check(app, a),
        Command::Duplicates(a) => duplicates::run(app, a),
        Command::Merge(a) => duplicates::merge(app, a),
        Command::Unmerge(a) => duplicates::unmerge(app, a),
        Command::Import(a) => transfer::import(app, a),
        Command::Export(a) => transfer::export(app, a),
        Command::Backup(a) => transfer::backup(app, a),
        Command::Restore(a) => transfer::restore(app, a),
        Command::Schedule(c) => schedule::run(app, c),
        Command::Jobs(a) => schedule::jobs(app, a),
        Command::Daemon(a) => schedule::daemon(app, a),
        Command::Chat(a) => chat::run(app, a),
        Command::Bot(c) => bot::run(app, c),
        Command::Serve(a) => serve::run(app, a),
        Command::Completions(_) | Command::Man(_) | Command::Mcp | Command::Prime | Command::Workload(_) => Ok(()),
    }
}

/// Runs the MCP server on stdio with this run's environment.
fn mcp(global: &GlobalArgs) -> Result<(), CliError> {
    let fixed_now = env::fixed_now()?;
    let config = tasks_mcp::ServerConfig::new(
        env::store_path(global.db.as_ref())?,
        env::actor(global.actor.as_deref())?,
        fixed_now,
        env::zone()?,
    );
    // Open once here so a bad store path or a too-new schema fails before the handshake.
    match config.store_path.to_str().filter(|p| tasks_pg::is_postgres_url(p)) {
        Some(url) => drop(tasks_pg::PgStore::connect(url)?),
        None => drop(Store::open(&config.store_path)?),
    }
    tasks_mcp::serve_stdio(config).map_err(|e| CliError::other(format!("mcp: {e:#}")))
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory as _;

    /// No flag states its default twice: a `[default: …]` written in the doc comment of
    /// a flag that also has `default_value`, which clap prints again. Walks every
    /// subcommand (and runs clap's own checks on the whole tree).
    #[test]
    fn every_flag_states_its_default_once() {
        fn walk(cmd: &clap::Command, path: &str, bad: &mut Vec<String>) {
            for arg in cmd.get_arguments() {
                let doc = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
                if doc.contains("[default:") && !arg.get_default_values().is_empty() {
                    bad.push(format!("{path} --{}: {doc}", arg.get_id()));
                }
            }
            for sub in cmd.get_subcommands() {
                walk(sub, &format!("{path} {}", sub.get_name()), bad);
            }
        }
        let mut cmd = super::Cli::command();
        cmd.build();
        let mut bad = Vec::new();
        walk(&cmd, "tasks", &mut bad);
        assert!(bad.is_empty(), "defaults stated twice:\n{}", bad.join("\n"));
    }
}
