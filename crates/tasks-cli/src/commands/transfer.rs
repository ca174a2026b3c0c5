//! `tasks import FILE.jsonl [--check-report OUT.jsonl] [--skip-bad]` and
//! `tasks export [--format jsonl]`.

use std::cell::Cell;
use std::io::{BufReader, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::rc::Rc;

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use tasks_core::ops::import::{self, ImportOptions};
use tasks_core::wire;

use super::App;
use crate::error::CliError;

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// JSON Lines file, one task a line ("-" reads stdin)
    pub file: PathBuf,
    /// Write, for each line, what the duplicate check said at its created_at
    #[arg(long, value_name = "OUT.jsonl")]
    pub check_report: Option<PathBuf>,
    /// Import the good lines and report the bad ones, instead of refusing the file
    #[arg(long)]
    pub skip_bad: bool,
}

/// Opens the import's input: a file, or stdin for `-`. Read line by line, never whole.
fn open_input(path: &PathBuf) -> Result<(Box<dyn Read>, Option<u64>), CliError> {
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
    read: Rc<Cell<u64>>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.set(self.read.get() + n as u64);
        Ok(n)
    }
}

/// Files above this size get a progress bar (on a terminal, without `--json`).
const PROGRESS_MIN_BYTES: u64 = 1 << 20;

pub fn import(app: &mut App, a: ImportArgs) -> Result<(), CliError> {
    let (input, size) = open_input(&a.file)?;
    let read = Rc::new(Cell::new(0u64));
    let mut reader = BufReader::with_capacity(1 << 16, Counting { inner: input, read: Rc::clone(&read) });
    let bar = match size {
        Some(total) if !app.json && std::io::stderr().is_terminal() && total > PROGRESS_MIN_BYTES => {
            let b = ProgressBar::new(total);
            if let Ok(style) = ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {eta}") {
                b.set_style(style);
            }
            Some(b)
        }
        _ => None,
    };
    let opts = ImportOptions { skip_bad: a.skip_bad, check_report: a.check_report.is_some(), weights: None };
    let mut progress = |n: usize| {
        if let Some(b) = &bar
            && n.is_multiple_of(256)
        {
            b.set_position(read.get());
        }
    };
    let out = import::import(&mut app.store, &app.ctx, &mut reader, &opts, &mut progress)?;
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
    let skipped: Vec<String> = out.skipped.iter().map(|e| e.to_string()).collect();
    app.print(
        || wire::imported(&out),
        || {
            let mut s = format!("Imported {} tasks.\n", out.imported);
            if !out.already_imported.is_empty() {
                s.push_str(&format!(
                    "{} line(s) were imported before (same id) and were skipped.\n",
                    out.already_imported.len()
                ));
            }
            if !skipped.is_empty() {
                s.push_str(&format!("Skipped {} bad lines:\n", skipped.len()));
                for e in &skipped {
                    s.push_str(&format!("  {e}\n"));
                }
            }
            s
        },
    );
    Ok(())
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ExportFormat {
    Jsonl,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Output format
    #[arg(long, value_enum, default_value = "jsonl")]
    pub format: ExportFormat,
}

pub fn export(app: &App, _a: ExportArgs) -> Result<(), CliError> {
    let lines = import::export(&app.store)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if app.json {
        // --json: one JSON value, the list of lines.
        writeln!(out, "{}", wire::exported(&lines)).map_err(|e| CliError::other(e.to_string()))?;
    } else {
        for l in &lines {
            writeln!(out, "{l}").map_err(|e| CliError::other(e.to_string()))?;
        }
    }
    Ok(())
}
