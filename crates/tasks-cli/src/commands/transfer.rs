//! `tasks import FILE.jsonl [--check-report OUT.jsonl] [--skip-bad]` and
//! `tasks export [--format jsonl]`.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

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

fn read_input(path: &PathBuf) -> Result<String, CliError> {
    if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| CliError::other(format!("stdin: {e}")))?;
        return Ok(s);
    }
    std::fs::read_to_string(path).map_err(|e| {
        let mut err = CliError::other(format!("{}: {e}", path.display()));
        if e.kind() == std::io::ErrorKind::NotFound {
            err.code = "not_found";
        }
        err
    })
}

pub fn import(app: &mut App, a: ImportArgs) -> Result<(), CliError> {
    let text = read_input(&a.file)?;
    let total = text.lines().count() as u64;
    let bar = if !app.json && std::io::stderr().is_terminal() && total > 1000 {
        let b = ProgressBar::new(total);
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} lines {eta}") {
            b.set_style(style);
        }
        Some(b)
    } else {
        None
    };
    let opts = ImportOptions { skip_bad: a.skip_bad, check_report: a.check_report.is_some(), weights: None };
    let mut progress = |n: usize| {
        if let Some(b) = &bar
            && n.is_multiple_of(256)
        {
            b.set_position(n as u64);
        }
    };
    let out = import::import(&mut app.store, &app.ctx, &text, &opts, &mut progress)?;
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
