//! The environment of one run, read once at the edge (SPEC §8): store path (`--db`,
//! `TASKS_DB`, the config file's `db`, XDG data dir), clock (`TASKS_NOW`), actor
//! (`--as`, `TASKS_ACTOR`, the config file's `actor`, the OS user), zone (`TASKS_TZ`,
//! the config file's `tz`, the machine's), and whether to colour (`NO_COLOR`, a tty).
//! Flags win over the environment, the environment over the file (`config`).

use std::io::IsTerminal;
use std::path::PathBuf;

use jiff::Timestamp;
use jiff::tz::TimeZone;
use tasks_core::Context;

use crate::config;
use crate::error::CliError;

/// The file name of the store inside the data dir.
const STORE_FILE: &str = "tasks.db";

/// Returns the store path: `--db`, then `TASKS_DB`, then the config file's `db`, then
/// `$XDG_DATA_HOME/tasks/tasks.db` (`~/.local/share/tasks/tasks.db`).
pub fn store_path(flag: Option<&PathBuf>) -> Result<PathBuf, CliError> {
    if let Some(p) = flag {
        return Ok(p.clone());
    }
    if let Some(p) = std::env::var_os("TASKS_DB").filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(p));
    }
    if let Some(p) = &config::get()?.db {
        return Ok(p.clone());
    }
    let data = match std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        Some(d) => PathBuf::from(d),
        None => match std::env::var_os("HOME").filter(|v| !v.is_empty()) {
            Some(home) => PathBuf::from(home).join(".local").join("share"),
            None => {
                return Err(CliError::config(
                    "cannot find a place for the store: neither TASKS_DB, XDG_DATA_HOME nor HOME is set",
                    Some("hint: set TASKS_DB=/path/to/tasks.db"),
                ));
            }
        },
    };
    Ok(data.join("tasks").join(STORE_FILE))
}

/// Returns now: `TASKS_NOW` (RFC 3339) when set, else the system clock.
pub fn now() -> Result<Timestamp, CliError> {
    match std::env::var("TASKS_NOW") {
        Ok(text) if !text.trim().is_empty() => text.trim().parse::<Timestamp>().map_err(|e| {
            CliError::config(
                format!("TASKS_NOW: cannot read \"{text}\" as an RFC 3339 time: {e}"),
                Some("hint: TASKS_NOW=2026-11-29T12:00:00Z"),
            )
        }),
        _ => Ok(Timestamp::now()),
    }
}

/// Returns the actor: `--as`, then `TASKS_ACTOR`, then the config file's `actor`, then
/// the OS user, then `owner`.
pub fn actor(flag: Option<&str>) -> Result<String, CliError> {
    let given = |a: Option<String>| a.filter(|a| !a.trim().is_empty());
    Ok(given(flag.map(str::to_string))
        .or_else(|| given(std::env::var("TASKS_ACTOR").ok()))
        .or(given(config::get()?.actor.clone()))
        .or_else(|| given(std::env::var("USER").ok()))
        .unwrap_or_else(|| "owner".to_string()))
}

/// Returns the zone for "today": `TASKS_TZ` (IANA name), then the config file's `tz`,
/// else the machine's zone.
pub fn zone() -> Result<TimeZone, CliError> {
    let (name, from) = match std::env::var("TASKS_TZ") {
        Ok(name) if !name.trim().is_empty() => (name, "TASKS_TZ".to_string()),
        _ => match &config::get()?.tz {
            Some(name) => (name.clone(), format!("tz in {}", config::path().unwrap_or_default().display())),
            None => return Ok(TimeZone::try_system().unwrap_or(TimeZone::UTC)),
        },
    };
    TimeZone::get(name.trim()).map_err(|e| {
        CliError::config(format!("{from}: unknown time zone \"{name}\": {e}"), Some("hint: TASKS_TZ=Europe/Berlin"))
    })
}

/// Builds the operation context for this run.
pub fn context(actor_flag: Option<&str>) -> Result<Context, CliError> {
    Ok(Context::new(now()?, actor(actor_flag)?, zone()?))
}

/// Returns true when human output may use colour: stdout is a terminal and `NO_COLOR`
/// is unset or empty (no-color.org).
pub fn colour() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal()
}
