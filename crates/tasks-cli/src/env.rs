//! The environment of one run, read once at the edge (SPEC §8): store path (`--db`,
//! `TASKS_DB`, the config file's `db`, XDG data dir), clock (`TASKS_NOW`), actor
//! (`--as`, `TASKS_ACTOR`, the config file's `actor`, the OS user), zone (`TASKS_TZ`,
//! the config file's `tz`, the machine's), and whether to colour (`NO_COLOR`, a tty).
//! Flags win over the environment, the environment over the file (`config`).
//!
//! The variables themselves are read once, by `vars::capture`, when `main` starts;
//! everything after reads that copy, never the process environment (the one exception:
//! the daemon passes a command's allow-listed variables through, by name). A value that
//! is not UTF-8 is refused with the variable's name (exit 3), never silently ignored.

use std::io::IsTerminal;
use std::path::PathBuf;

use jiff::Timestamp;
use jiff::tz::TimeZone;
use tasks_core::Context;

use crate::config;
use crate::error::CliError;
pub use crate::vars::{DESCRIBED, SECRETS, capture};

/// The file name of the store inside the data dir.
const STORE_FILE: &str = "tasks.db";

/// Returns the store path: `--db`, then `TASKS_DB`, then the config file's `db`, then
/// `$XDG_DATA_HOME/tasks/tasks.db` (`~/.local/share/tasks/tasks.db`).
pub fn store_path(flag: Option<&PathBuf>) -> Result<PathBuf, CliError> {
    if let Some(p) = flag {
        return Ok(p.clone());
    }
    let env = capture();
    if let Some(p) = env.path("TASKS_DB") {
        return Ok(p);
    }
    if let Some(p) = &config::get()?.db {
        return Ok(p.clone());
    }
    let data = match env.path("XDG_DATA_HOME") {
        Some(d) => d,
        None => match env.path("HOME") {
            Some(home) => home.join(".local").join("share"),
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
    match fixed_now()? {
        Some(t) => Ok(t),
        None => Ok(Timestamp::now()),
    }
}

/// Returns the fixed clock of `TASKS_NOW`, if set.
pub fn fixed_now() -> Result<Option<Timestamp>, CliError> {
    match capture().text("TASKS_NOW")? {
        Some(text) if !text.trim().is_empty() => text.trim().parse::<Timestamp>().map(Some).map_err(|e| {
            CliError::config(
                format!("TASKS_NOW: cannot read \"{text}\" as an RFC 3339 time: {e}"),
                Some("hint: TASKS_NOW=2026-11-29T12:00:00Z"),
            )
        }),
        _ => Ok(None),
    }
}

/// Returns the actor: `--as`, then `TASKS_ACTOR`, then the config file's `actor`, then
/// the OS user, then `owner`.
pub fn actor(flag: Option<&str>) -> Result<String, CliError> {
    let env = capture();
    let given = |a: Option<String>| a.filter(|a| !a.trim().is_empty());
    Ok(given(flag.map(str::to_string))
        .or(given(env.text("TASKS_ACTOR")?))
        .or(given(config::get()?.actor.clone()))
        .or(given(env.text("USER").ok().flatten()))
        .unwrap_or_else(|| "owner".to_string()))
}

/// Returns the zone for "today": `TASKS_TZ` (IANA name), then the config file's `tz`,
/// else the machine's zone.
pub fn zone() -> Result<TimeZone, CliError> {
    let (name, from) = match capture().text("TASKS_TZ")? {
        Some(name) if !name.trim().is_empty() => (name, "TASKS_TZ".to_string()),
        _ => match &config::get()?.tz {
            Some(name) => (name.clone(), format!("tz in {}", config::path().unwrap_or_default().display())),
            None => return Ok(TimeZone::try_system().unwrap_or(TimeZone::UTC)),
        },
    };
    TimeZone::get(name.trim()).map_err(|e| {
        CliError::config(format!("{from}: unknown time zone \"{name}\": {e}"), Some("hint: TASKS_TZ=Europe/Berlin"))
    })
}

/// Returns how long a write waits for the store's write lock: `TASKS_BUSY_TIMEOUT`
/// (`30s`, `2m`), else the core's default.
pub fn busy_timeout() -> Result<std::time::Duration, CliError> {
    match capture().text("TASKS_BUSY_TIMEOUT")? {
        Some(text) => tasks_core::input::parse_duration("TASKS_BUSY_TIMEOUT", text.trim())
            .map_err(|e| CliError::config(e.to_string(), Some("hint: TASKS_BUSY_TIMEOUT=30s"))),
        None => Ok(tasks_core::store::BUSY_TIMEOUT),
    }
}

/// Returns whether free text is accepted: `TASKS_CONVERSATIONAL` (`off`, `false`, `0`,
/// `no` / `on`, `true`, `1`, `yes`), else the file's `conversational`, else yes.
pub fn conversational() -> Result<bool, CliError> {
    match capture().text("TASKS_CONVERSATIONAL")? {
        Some(v) => match v.trim().to_ascii_lowercase().as_str() {
            "off" | "false" | "0" | "no" => Ok(false),
            "on" | "true" | "1" | "yes" | "" => Ok(true),
            other => Err(CliError::config(
                format!("TASKS_CONVERSATIONAL: cannot read \"{other}\" as on or off"),
                Some("hint: TASKS_CONVERSATIONAL=off switches free text off; on (or unset) switches it on"),
            )),
        },
        None => Ok(config::get()?.conversational.unwrap_or(true)),
    }
}

/// Returns the model to talk to, or `None` when no model is named (then the offline
/// parser reads free text). Each value: the environment, else the file, else the
/// default (the base URL and the timeout).
pub fn llm() -> Result<Option<tasks_chat::llm::LlmConfig>, CliError> {
    let env = capture();
    let file = config::get()?;
    let Some(model) = env.text("TASKS_LLM_MODEL")?.or_else(|| file.llm_model.clone()).filter(|m| !m.trim().is_empty())
    else {
        return Ok(None);
    };
    let base_url = env
        .text("TASKS_LLM_BASE_URL")?
        .or_else(|| file.llm_base_url.clone())
        .unwrap_or_else(|| tasks_chat::llm::DEFAULT_BASE_URL.to_string());
    let api_key = env.text("TASKS_LLM_API_KEY")?.or_else(|| file.llm_api_key.clone()).filter(|k| !k.is_empty());
    let timeout = match env.text("TASKS_LLM_TIMEOUT")?.or_else(|| file.llm_timeout.clone()) {
        Some(text) => tasks_core::input::parse_duration("TASKS_LLM_TIMEOUT", text.trim())
            .map_err(|e| CliError::config(e.to_string(), Some("hint: TASKS_LLM_TIMEOUT=30s")))?,
        None => tasks_chat::llm::DEFAULT_TIMEOUT,
    };
    if timeout.is_zero() {
        return Err(CliError::config(
            "TASKS_LLM_TIMEOUT: a timeout of zero never lets the model answer",
            Some("hint: TASKS_LLM_TIMEOUT=30s"),
        ));
    }
    Ok(Some(tasks_chat::llm::LlmConfig {
        base_url: base_url.trim().to_string(),
        model: model.trim().to_string(),
        api_key,
        timeout,
    }))
}

/// What the Telegram bot needs from the environment and the config file.
pub struct TelegramSettings {
    /// The bot token (a secret: never printed).
    pub token: String,
    /// The allow-list of chat ids.
    pub chats: Vec<i64>,
    /// The Bot API's base URL.
    pub api_url: String,
}

/// Reads the bot's settings: `TELEGRAM_BOT_TOKEN` / `[telegram] bot_token`, and the
/// allow-list `TASKS_TELEGRAM_CHATS` (comma-separated ids) / `[telegram] chats`, without
/// which the bot refuses to start (exit 3 naming the setting): a bot that answers
/// anyone who finds it would hand them the task list.
pub fn telegram() -> Result<TelegramSettings, CliError> {
    let env = capture();
    let file = config::get()?;
    let token = env.text("TELEGRAM_BOT_TOKEN")?.or_else(|| file.telegram_bot_token.clone()).ok_or_else(|| {
        CliError::config(
            "no Telegram bot token: set TELEGRAM_BOT_TOKEN or [telegram] bot_token",
            Some("hint: @BotFather's /newbot gives one; keep it in the 0600 config file"),
        )
    })?;
    let chats = match env.text("TASKS_TELEGRAM_CHATS")? {
        Some(list) => list
            .split(',')
            .filter(|c| !c.trim().is_empty())
            .map(|c| {
                c.trim().parse::<i64>().map_err(|_| {
                    CliError::config(
                        format!("TASKS_TELEGRAM_CHATS: cannot read {:?} as a chat id", c.trim()),
                        Some("hint: TASKS_TELEGRAM_CHATS=123456789,-100200300 (numbers, comma-separated)"),
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?,
        None => file.telegram_chats.clone().unwrap_or_default(),
    };
    if chats.is_empty() {
        return Err(CliError::config(
            "the Telegram bot needs an allow-list of chats: set TASKS_TELEGRAM_CHATS or [telegram] chats",
            Some(
                "hint: send the bot a message, read your chat id with tasks bot telegram --once (it logs ignored chats), then allow it",
            ),
        ));
    }
    let api_url = env
        .text("TASKS_TELEGRAM_API_URL")?
        .or_else(|| file.telegram_api_url.clone())
        .unwrap_or_else(|| tasks_bot::telegram::DEFAULT_API_URL.to_string());
    Ok(TelegramSettings { token, chats, api_url })
}

/// Builds the operation context for this run.
pub fn context(actor_flag: Option<&str>) -> Result<Context, CliError> {
    Ok(Context::new(now()?, actor(actor_flag)?, zone()?))
}

/// Returns the width of the terminal stdout writes to, or `None` when stdout is not a
/// terminal (a pipe gets whole lines). `COLUMNS` wins when set.
pub fn width() -> Option<u16> {
    if !std::io::stdout().is_terminal() {
        return None;
    }
    if let Some(c) = capture().raw("COLUMNS").and_then(|v| v.to_str()).and_then(|v| v.trim().parse::<u16>().ok()) {
        return Some(c);
    }
    rustix::termios::tcgetwinsize(std::io::stdout()).ok().map(|w| w.ws_col).filter(|c| *c > 0)
}

/// Returns true when human output may use colour: stdout is a terminal and `NO_COLOR`
/// is unset or empty (no-color.org).
pub fn colour() -> bool {
    capture().raw("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal()
}
