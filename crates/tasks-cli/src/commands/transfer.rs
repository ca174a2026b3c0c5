//! `tasks import FILE [--from tasks|taskwarrior|beads] [--check-report OUT] [--skip-bad]`,
//! `tasks export [--format tasks|lines|taskwarrior|beads]`, `tasks backup FILE` and
//! `tasks restore FILE --yes` (issue 15).

use std::io::{BufRead, BufReader, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use tasks_core::interop;
use tasks_core::ops::import::{self, ImportOptions};
use tasks_core::ops::{backup, dump};
use tasks_core::wire;

use super::{App, Backend};
use crate::error::CliError;

/// Where an import file comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum From {
    /// `tasks export` (read whole), or task lines (SPEC §10) — told apart by the first line
    Tasks,
    /// The JSON of Taskwarrior's `task export`
    Taskwarrior,
    /// beads' `.beads/issues.jsonl`
    Beads,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The file ("-" reads stdin): a `tasks export`, task lines, or another tool's export
    pub file: PathBuf,
    /// What wrote the file
    #[arg(long, value_enum, default_value = "tasks")]
    pub from: From,
    /// Write, for each line, what the duplicate check said at its created_at
    #[arg(long, value_name = "OUT.jsonl")]
    pub check_report: Option<PathBuf>,
    /// Import the good lines and report the bad ones, instead of refusing the file
    #[arg(long)]
    pub skip_bad: bool,
}

/// Opens the import's input: a file, or stdin for `-`. Read line by line, never whole.
fn open_input(path: &PathBuf) -> Result<(Box<dyn Read + Send>, Option<u64>), CliError> {
    if path.as_os_str() == "-" {
        return Ok((Box::new(std::io::stdin()), None));
    }
    let file = std::fs::File::open(path).map_err(|e| {
        let mut err = CliError::other(format!("{}: {e}", path.display()));
        if e.kind() == std::io::ErrorKind::NotFound {
            err.code = "not_found";
        }
        err
    })?;
    let size = file.metadata().ok().map(|m| m.len());
    Ok((Box::new(file), size))
}

/// Counts the bytes read through it, for the progress bar.
struct Counting<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Files above this size get a progress bar (on a terminal, without `--json`).
const PROGRESS_MIN_BYTES: u64 = 1 << 20;

/// A progress bar on a terminal (never with `--json` or when stderr is not one).
pub fn bar(json: bool, total: Option<u64>, template: &str) -> Option<ProgressBar> {
    if json || !std::io::stderr().is_terminal() {
        return None;
    }
    let b = match total {
        Some(t) => ProgressBar::new(t),
        None => ProgressBar::new_spinner(),
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        b.set_style(style);
    }
    Some(b)
}

pub fn import(app: &mut App, a: ImportArgs) -> Result<(), CliError> {
    match a.from {
        From::Tasks => import_tasks(app, a),
        From::Taskwarrior | From::Beads => import_converted(app, a),
    }
}

fn import_tasks(app: &mut App, a: ImportArgs) -> Result<(), CliError> {
    let (input, size) = open_input(&a.file)?;
    let read = Arc::new(AtomicU64::new(0));
    let mut reader = BufReader::with_capacity(1 << 16, Counting { inner: input, read: Arc::clone(&read) });
    let bar = bar(app.json, size.filter(|s| *s > PROGRESS_MIN_BYTES), "{bar:40} {bytes}/{total_bytes} {eta}");
    // The first line tells a `tasks export` (a header) from task lines.
    let mut first = String::new();
    reader.read_line(&mut first).map_err(|e| CliError::other(format!("{}: {e}", a.file.display())))?;
    let mut progress = |n: usize| {
        if let Some(b) = &bar
            && n.is_multiple_of(256)
        {
            b.set_position(read.load(Ordering::Relaxed));
        }
    };
    if dump::is_dump_header(first.trim_end()) {
        if a.check_report.is_some() {
            return Err(CliError::validation("--check-report reads task lines, not a tasks export", None));
        }
        let out = match &mut app.store {
            Backend::Sqlite(store) => dump::import(store, first.trim_end(), &mut reader, &mut progress)?,
            Backend::Postgres(store) => tasks_pg::dump::import(store, first.trim_end(), &mut reader)?,
        };
        if let Some(b) = &bar {
            b.finish_and_clear();
        }
        app.print(|| wire::dump_imported(&out), || dump_text(&out));
        return Ok(());
    }
    let mut chained = std::io::Cursor::new(first.into_bytes()).chain(reader);
    let opts = ImportOptions { skip_bad: a.skip_bad, check_report: a.check_report.is_some(), ..Default::default() };
    let out = import::import(app.store.engine(), &app.ctx, &mut chained, &opts, &mut progress)?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if let Some(path) = &a.check_report {
        let mut file = std::fs::File::create(path)
            .map_err(|e| CliError::other(format!("{}: cannot write the check report: {e}", path.display())))?;
        for line in &out.report {
            writeln!(file, "{}", wire::check_report_line(line))
                .map_err(|e| CliError::other(format!("{}: {e}", path.display())))?;
        }
    }
    app.print(|| wire::imported(&out), || import_text(&out, &[]));
    Ok(())
}

fn import_text(out: &import::ImportOutcome, not_mapped: &[String]) -> String {
    let mut s = format!("Imported {} tasks.\n", out.imported);
    if out.scheduled > 0 {
        s.push_str(&format!("Scheduled {} recurring task(s).\n", out.scheduled));
    }
    if !out.already_imported.is_empty() {
        s.push_str(&format!(
            "{} line(s) were imported before (same id) and were skipped.\n",
            out.already_imported.len()
        ));
    }
    if !out.skipped.is_empty() {
        s.push_str(&format!("Skipped {} bad lines:\n", out.skipped.len()));
        for e in &out.skipped {
            s.push_str(&format!("  {}\n", tasks_text::printable(&e.to_string())));
        }
    }
    if !not_mapped.is_empty() {
        s.push_str(&format!("Not mapped ({}):\n", not_mapped.len()));
        for m in not_mapped {
            s.push_str(&format!("  {}\n", tasks_text::printable(m)));
        }
    }
    s
}

fn import_converted(app: &mut App, a: ImportArgs) -> Result<(), CliError> {
    let (mut input, _) = open_input(&a.file)?;
    let mut text = String::new();
    input.read_to_string(&mut text).map_err(|e| CliError::validation(format!("{}: {e}", a.file.display()), None))?;
    let (from, converted) = match a.from {
        From::Taskwarrior => ("taskwarrior", interop::taskwarrior::to_import_lines_in(&text, &app.ctx.zone)),
        _ => ("beads", interop::beads::to_import_lines_in(&text, &app.ctx.zone)),
    };
    let converted = converted.map_err(|e| CliError::validation(format!("{}: {e}", a.file.display()), None))?;
    let lines: Vec<String> = converted.lines.iter().map(ToString::to_string).collect();
    let opts = ImportOptions { skip_bad: a.skip_bad, ..Default::default() };
    let out = import::import_text(app.store.engine(), &app.ctx, &lines.join("\n"), &opts, &mut |_| {})?;
    app.print(|| wire::imported_converted(&out, from, &converted.skipped), || import_text(&out, &converted.skipped));
    Ok(())
}

/// What `export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// Everything the store holds, for `tasks import` (lossless)
    Tasks,
    /// One task a line (SPEC §10), for other programs
    Lines,
    /// JSON that Taskwarrior's `task import` reads
    Taskwarrior,
    /// beads' issues.jsonl
    Beads,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Output format
    #[arg(long, visible_alias = "to", value_enum, default_value = "tasks")]
    pub format: ExportFormat,
    /// Write to this new file instead of standard output: private (0600) from its first
    /// byte, and there only once complete (an export stopped half-way leaves no file)
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
}

pub fn export(app: &mut App, a: ExportArgs) -> Result<(), CliError> {
    let Some(path) = a.output.clone() else {
        let stdout = std::io::stdout();
        return export_to(app, a, &mut std::io::BufWriter::new(stdout.lock()));
    };
    let mut file = tasks_core::files::NewFile::create(&path)?;
    let handle = file.file().try_clone().map_err(|e| CliError::other(format!("{}: {e}", path.display())))?;
    export_to(app, a, &mut std::io::BufWriter::new(handle))?;
    let bytes = file.commit()?;
    if !app.json {
        eprintln!("Exported to {} ({bytes} bytes).", tasks_text::printable(&path.display().to_string()));
    }
    Ok(())
}

fn export_to(app: &mut App, a: ExportArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let mut out = out;
    let io = |e: std::io::Error| CliError::other(e.to_string());
    if a.format == ExportFormat::Tasks {
        if app.json {
            return Err(CliError::validation(
                "--json does not apply to the tasks format: it is JSON Lines already",
                Some("hint: tasks export > backup.jsonl".into()),
            ));
        }
        let bar = bar(app.json, None, "{spinner} {pos} records");
        let mut progress = |n: u64| {
            if let Some(b) = &bar {
                b.set_position(n);
            }
        };
        match &mut app.store {
            Backend::Sqlite(store) => {
                dump::export(store, &app.ctx, &mut out, &mut progress)?;
            }
            Backend::Postgres(store) => {
                tasks_pg::dump::export(store, &app.ctx, &mut out)?;
            }
        }
        if let Some(b) = &bar {
            b.finish_and_clear();
        }
        return out.flush().map_err(io);
    }
    let lines = import::export(&app.store)?;
    let lines = match a.format {
        ExportFormat::Taskwarrior => interop::taskwarrior::from_import_lines_in(&lines, &app.ctx.zone)
            .map_err(|e| CliError::other(format!("taskwarrior export: {e}")))?,
        ExportFormat::Beads => interop::beads::from_import_lines_in(&lines, &app.ctx.zone)
            .map_err(|e| CliError::other(format!("beads export: {e}")))?,
        _ => lines,
    };
    if app.json || a.format == ExportFormat::Taskwarrior {
        // One JSON value: `--json`'s list, or the array `task import` reads.
        let v = if a.format == ExportFormat::Taskwarrior && !app.json {
            serde_json::Value::Array(lines)
        } else {
            wire::exported(&lines)
        };
        writeln!(out, "{v}").map_err(io)?;
    } else {
        for l in &lines {
            writeln!(out, "{l}").map_err(io)?;
        }
    }
    out.flush().map_err(io)
}

#[derive(Debug, Args)]
pub struct BackupArgs {
    /// The backup file to write (must not exist)
    pub file: PathBuf,
}

/// `tasks backup FILE`: a consistent copy while others write.
pub fn backup(app: &App, a: BackupArgs) -> Result<(), CliError> {
    let store = app.store.sqlite_ref(
        "backup",
        "a PostgreSQL store is backed up by the server's own tools (pg_dump, base backups), or with tasks export",
    )?;
    let out = backup::backup(store, &a.file)?;
    let path = a.file.display().to_string();
    app.print(
        || wire::backed_up(&path, &out),
        || {
            let mut s = String::new();
            for p in &out.removed_partials {
                s.push_str(&format!("Removed {}, a partial backup a stopped run left.\n", tasks_text::printable(p)));
            }
            s.push_str(&format!(
                "Backed up {} tasks to {} ({} bytes).\n",
                out.tasks,
                tasks_text::printable(&path),
                out.bytes
            ));
            s
        },
    );
    Ok(())
}

#[derive(Debug, Args)]
pub struct RestoreArgs {
    /// The backup file to restore from
    pub file: PathBuf,
    /// Replace the store's content without asking (required: a restore replaces what
    /// the store holds now)
    #[arg(long)]
    pub yes: bool,
    /// Do not keep the store as it was (by default it is first backed up beside itself,
    /// named with the time, and the restore says where)
    #[arg(long)]
    pub no_keep: bool,
}

/// `tasks restore FILE --yes`.
pub fn restore(app: &mut App, a: RestoreArgs) -> Result<(), CliError> {
    let what = app.store.describe();
    let store = app.store.sqlite(
        "restore",
        "restore copies a SQLite file over the store; on PostgreSQL use tasks import with a tasks export",
    )?;
    let tasks = backup::check(&a.file)?;
    if !a.yes {
        return Err(CliError {
            code: "confirmation_required",
            ..CliError::validation(
                format!(
                    "restoring {} replaces everything in {} with its {tasks} tasks",
                    a.file.display(),
                    tasks_text::printable(&what)
                ),
                Some(
                    "hint: rerun with --yes; the store as it is now is kept in a backup beside it (unless --no-keep)"
                        .into(),
                ),
            )
        });
    }
    let keep = (!a.no_keep).then(|| backup::keep_path(store.path(), app.ctx.now_ms()));
    let out = backup::restore(store, &a.file, keep.as_deref())?;
    let path = a.file.display().to_string();
    app.print(
        || wire::restored(&path, &out),
        || {
            let mut s = format!("Restored {} tasks from {}.\n", out.tasks, tasks_text::printable(&path));
            if let Some(k) = &out.kept {
                s.push_str(&format!(
                    "The store as it was is kept in {} (tasks restore it --yes to go back).\n",
                    tasks_text::printable(k)
                ));
            }
            s
        },
    );
    Ok(())
}

/// The human text of an imported export.
pub fn dump_text(out: &dump::DumpOutcome) -> String {
    let total: u64 = out.written.values().sum();
    let mut s = format!("Imported a tasks export ({}): {total} records written.\n", out.mode);
    if out.kept > 0 {
        s.push_str(&format!("{} tasks were here already (same UUID) and were kept as they are.\n", out.kept));
    }
    for c in &out.conflicts {
        s.push_str(&format!("  {}\n", tasks_text::printable(c)));
    }
    for (kind, n) in &out.not_merged {
        s.push_str(&format!("Not merged: {n} {kind} record(s) — they are restored only into an empty store.\n"));
    }
    s
}
